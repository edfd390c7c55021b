/**
 * The OpenAPI v2 document as older kubectl (1.20, Debian's) asks for it: protobuf only (gnostic's
 * `openapi_v2.Document`). It names no schema, so kubectl validates nothing on its side and sends
 * merge patches (the server's checks judge every write); it carries, per kind, the PATCH operation
 * with its group-version-kind extension and a `dryRun` query parameter, which is how that kubectl
 * learns the server supports dry runs (`kubectl diff`).
 *
 * Field numbers (gnostic openapiv2.proto): Document.swagger 1, .paths 8; Paths.path 2;
 * NamedPathItem.name 1, .value 2; PathItem.patch 8; Operation.parameters 8, .vendor_extension 13;
 * ParametersItem.parameter 1; Parameter.non_body_parameter 2; NonBodyParameter.query 3;
 * QueryParameterSubSchema.in 2, .name 4, .type 6; NamedAny.name 1, .value 2; Any.yaml 2.
 */
import { API_VERSION, GROUP, KINDS, VERSION } from './kinds.ts';

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** A length-delimited field (wire type 2): a string or a nested message. */
function field(no: number, value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([Buffer.from([...varint((no << 3) | 2), ...varint(bytes.length)]), bytes]);
}

const msg = (...fields: Buffer[]) => Buffer.concat(fields);

function patchPath(path: string, kind: string): Buffer {
  const dryRun = msg(field(2, 'query'), field(4, 'dryRun'), field(6, 'string'));
  const parameter = field(8, field(1, field(2, field(3, dryRun))));
  const gvk = field(
    13,
    msg(
      field(1, 'x-kubernetes-group-version-kind'),
      field(2, field(2, `group: ${GROUP}\nkind: ${kind}\nversion: ${VERSION}\n`)),
    ),
  );
  const operation = msg(parameter, gvk);
  return field(2, msg(field(1, path), field(2, field(8, operation))));
}

let doc: Buffer | undefined;
export function openApiV2Proto(): Buffer {
  doc ??= msg(
    field(1, '2.0'),
    field(
      8,
      msg(
        ...KINDS.map((k) =>
          patchPath(
            k.namespaced
              ? `/apis/${API_VERSION}/namespaces/{namespace}/${k.plural}/{name}`
              : `/apis/${API_VERSION}/${k.plural}/{name}`,
            k.kind,
          ),
        ),
      ),
    ),
  );
  return doc;
}

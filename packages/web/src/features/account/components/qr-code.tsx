import { useMemo } from 'react';
import qrcode from 'qrcode-generator';

/**
 * A QR code drawn as SVG (no canvas, no data URL): one path of dark modules, with the quiet zone
 * of four modules the standard asks for so phone cameras find it.
 */
export function QrCode({ value, size = 184, label }: { value: string; size?: number; label: string }) {
  const { d, count } = useMemo(() => {
    const qr = qrcode(0, 'M'); // type 0: the smallest version that fits; M: ~15% damage tolerated
    qr.addData(value);
    qr.make();
    const n = qr.getModuleCount();
    let path = '';
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) path += `M${c + 4} ${r + 4}h1v1h-1z`;
    return { d: path, count: n + 8 };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${count} ${count}`}
      shapeRendering="crispEdges"
      className="rounded-md border border-gray-200 bg-white"
    >
      <rect width={count} height={count} fill="#fff" />
      <path d={d} fill="#111827" />
    </svg>
  );
}

// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import { ApiError, apiAnswer, apiRequest, errorMessage, setUnauthorizedHandler } from '../src/lib/http.ts';
import { toastError, TOAST_DURATION_MS } from '../src/lib/toast.ts';
import { copyToClipboard } from '../src/lib/clipboard.ts';
import { db, unwrap } from '../src/lib/api.ts';

vi.mock('sonner', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }));

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let online = true;
beforeEach(() => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.success).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected a failure');
}

describe('HTTP failures and error toasts', () => {
  it("uses the response's error field, else its message, else 'An error occurred'", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(json(500, { error: 'boom', message: 'ignored' })));
    expect((await failureOf(apiRequest('/x'))).message).toBe('boom');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(json(400, { message: 'bad input' })));
    expect((await failureOf(apiRequest('/x'))).message).toBe('bad input');
    // the server's own shape: error is the status text, the message is what to show
    const own = { statusCode: 400, code: 'invalid_query', error: 'Bad Request', message: 'start must be before end' };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(json(400, own)));
    expect((await failureOf(apiRequest('/x'))).message).toBe('start must be before end');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(json(502, {})));
    const err = await failureOf(apiRequest('/x'));
    expect(err.message).toBe('An error occurred');
    expect(err.status).toBe(502);
    expect(errorMessage({ code: 'PGRST116', message: 'JSON object requested' })).toBe('JSON object requested');
    expect(errorMessage(undefined)).toBe('An error occurred');
    // postgrest-js reports a failed fetch as '<name>: <message>'
    expect(errorMessage({ message: 'ApiError: Network Error. Please try again.', code: '' })).toBe(
      'Network Error. Please try again.',
    );
  });

  it("never shows a body that is not JSON: 'An error occurred' (apiRequest and /api/db)", async () => {
    const html = () =>
      new Response('<html><body><h1>502 Bad Gateway</h1>nginx</body></html>', {
        status: 502,
        headers: { 'Content-Type': 'text/html' },
      });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(html()));
    const err = await failureOf(apiRequest('/canary/run/check/1', { method: 'POST' }));
    expect(err.message).toBe('An error occurred');
    expect(err.status).toBe(502);
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(html()));
    const write = await db.from('canaries').update({ name: 'x' }).eq('id', '1');
    expect(() => unwrap(write)).toThrow('An error occurred');
    // a JSON error keeps its message
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(400, { code: '23514', message: 'name is required' })));
    const bad = await db.from('canaries').update({ name: '' }).eq('id', '1');
    expect(() => unwrap(bad)).toThrow('name is required');
  });

  it("maps a network failure to 'Network Error. Please try again.'", async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    expect((await failureOf(apiRequest('/x'))).message).toBe('Network Error. Please try again.');
  });

  it("says 'No internet connection. Please try again.' when offline", async () => {
    online = false;
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    expect((await failureOf(apiRequest('/x'))).message).toBe('No internet connection. Please try again.');
  });

  it("times out with 'Request timed out. Please try again.'", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      ),
    );
    expect((await failureOf(apiRequest('/slow', { timeoutMs: 20 }))).message).toBe(
      'Request timed out. Please try again.',
    );
  });

  it('sends a 401 to the unauthorized handler unless told not to', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(() => Promise.resolve(json(401, { error: 'Unauthorized' }))),
    );
    expect((await failureOf(apiRequest('/x'))).status).toBe(401);
    expect(handler).toHaveBeenCalledTimes(1);
    await failureOf(apiRequest('/x', { skipAuthRedirect: true }));
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('answers a call started before the app loaded (the /health preload) as apiRequest would', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    expect(await apiAnswer(Promise.resolve(json(200, { checks_summary: [] })))).toEqual({ checks_summary: [] });
    expect((await failureOf(apiAnswer(Promise.resolve(json(500, { error: 'boom' }))))).message).toBe('boom');
    expect((await failureOf(apiAnswer(Promise.resolve(json(401, {}))))).status).toBe(401);
    expect(handler).toHaveBeenCalledTimes(1);
    const lost = await failureOf(apiAnswer(Promise.reject(new TypeError('Failed to fetch'))));
    expect(lost.message).toBe('Network Error. Please try again.');
  });

  it('toastError shows the message for 5 seconds', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(json(500, { error: 'database unreachable' })));
    const err = await failureOf(apiRequest('/x'));
    expect(toastError(err)).toBe('database unreachable');
    expect(toast.error).toHaveBeenCalledWith('database unreachable', { duration: 5000 });
    toastError(new ApiError('network', 'Network Error. Please try again.'));
    expect(toast.error).toHaveBeenLastCalledWith('Network Error. Please try again.', { duration: TOAST_DURATION_MS });
    toastError({});
    expect(toast.error).toHaveBeenLastCalledWith('An error occurred', { duration: 5000 });
  });
});

describe('clipboard', () => {
  it("says 'Copied to clipboard' on success", async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    expect(await copyToClipboard('abc')).toBe(true);
    expect(writeText).toHaveBeenCalledWith('abc');
    expect(toast.success).toHaveBeenCalledWith('Copied to clipboard', { duration: 5000 });
    await copyToClipboard('id-1', 'Copied id-1 to clipboard');
    expect(toast.success).toHaveBeenLastCalledWith('Copied id-1 to clipboard', { duration: 5000 });
  });

  it("says 'Failed to copy to clipboard' when writing fails", async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: vi.fn().mockRejectedValue(new Error('denied')) },
    });
    expect(await copyToClipboard('abc')).toBe(false);
    expect(toast.error).toHaveBeenCalledWith('Failed to copy to clipboard', { duration: 5000 });
  });

  it("says 'Clipboard not available' without a clipboard", async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    expect(await copyToClipboard('abc')).toBe(false);
    expect(toast.error).toHaveBeenCalledWith('Clipboard not available', { duration: 5000 });
  });
});

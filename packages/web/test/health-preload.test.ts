// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The summary call of a /health deep link: index.html's inline script may have started it before
 * api/preload.ts loaded (it leaves window.__watchdeckSummary), the router's preload may start it,
 * and the page's query takes it. Each case loads the module afresh: it adopts the early call at load.
 */
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

function earlyCall(url: string) {
  const controller = new AbortController();
  const w = window as unknown as Record<string, unknown>;
  w.__watchdeckSummary = { url, at: Date.now(), controller, response: Promise.resolve(json({ early: true })) };
  return controller;
}

const loadPreload = async () => {
  vi.resetModules();
  return import('../src/features/health/api/preload.ts');
};

describe('/health summary preload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (window as unknown as Record<string, unknown>).__watchdeckSummary;
  });

  it('adopts the call index.html started, so the router and the page send none of their own', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    const controller = earlyCall('/api/canary/api/summary?start=1h');
    const { preloadHealthSummary, summaryUrl, fetchSummary } = await loadPreload();
    expect((window as unknown as Record<string, unknown>).__watchdeckSummary).toBeUndefined();

    preloadHealthSummary('');
    const url = summaryUrl({ timeRange: '1h' });
    const taken = fetchSummary(url, new AbortController().signal);
    expect(await taken).toEqual({ early: true });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(controller.signal.aborted).toBe(false);
  });

  it('aborts an early call for a URL the app does not ask for and sends its own', async () => {
    const fetchSpy = vi.fn().mockResolvedValue(json({ own: true }));
    vi.stubGlobal('fetch', fetchSpy);
    // a timeRange the app does not know: the inline script sent it as it was, the app asks for 1h
    const controller = earlyCall('/api/canary/api/summary?start=bogus');
    const { preloadHealthSummary, summaryUrl, fetchSummary } = await loadPreload();

    preloadHealthSummary('?timeRange=bogus');
    expect(controller.signal.aborted).toBe(true);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(String(fetchSpy.mock.calls[0][0])).toContain('/api/canary/api/summary?start=1h');
    expect(await fetchSummary(summaryUrl({ timeRange: '1h' }), new AbortController().signal)).toEqual({
      own: true,
    });
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('shares one call per URL in flight: a second caller, a remount and a preload of any age wait for it', async () => {
    let answer!: (r: Response) => void;
    const fetchSpy = vi.fn(() => new Promise<Response>((r) => (answer = r)));
    vi.stubGlobal('fetch', fetchSpy);
    const { preloadSummary, summaryUrl, fetchSummary } = await loadPreload();
    const url = summaryUrl({ timeRange: '1h' });
    preloadSummary({ timeRange: '1h' });
    // the page's query, then a remount: its first signal aborts, a second caller takes over
    const first = new AbortController();
    const dropped = fetchSummary(url, first.signal);
    first.abort();
    await expect(dropped).rejects.toThrow();
    const again = fetchSummary(url, new AbortController().signal);
    const other = fetchSummary(url, new AbortController().signal);
    const signal = (fetchSpy.mock.calls[0] as unknown as [string, RequestInit])[1].signal!;
    await new Promise((r) => setTimeout(r, 150)); // past the grace a let-go call is kept for
    expect(signal.aborted).toBe(false);
    answer(json({ one: true }));
    expect(await again).toEqual({ one: true });
    expect(await other).toEqual({ one: true });
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    // answered and taken: the next refresh asks the server again
    void fetchSummary(url, new AbortController().signal).catch(() => {});
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });

  it('aborts a call nobody waits for any more, and a preload when the page asks for another URL', async () => {
    const fetchSpy = vi.fn((_url: string, init: RequestInit) => {
      return new Promise<Response>((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    });
    vi.stubGlobal('fetch', fetchSpy);
    const { preloadSummary, summaryUrl, fetchSummary } = await loadPreload();
    preloadSummary({ timeRange: '2d' });
    const preload = (fetchSpy.mock.calls[0] as unknown as [string, RequestInit])[1].signal!;
    const page = new AbortController();
    void fetchSummary(summaryUrl({ timeRange: '1h' }), page.signal).catch(() => {});
    expect(preload.aborted).toBe(true);
    const own = (fetchSpy.mock.calls[1] as unknown as [string, RequestInit])[1].signal!;
    page.abort(); // a new time range: the old query lets go
    await new Promise((r) => setTimeout(r, 500));
    expect(own.aborted).toBe(false); // still within the grace a quick switch back would use
    await new Promise((r) => setTimeout(r, 700));
    expect(own.aborted).toBe(true);
  });
});

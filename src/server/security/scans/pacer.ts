// The scanner's politeness: requests (HTTP and TCP connects) to one host are spaced at least
// 1/rate seconds apart, across every scan of this process (two companies may register the same
// host). Each caller reserves the next free slot and sleeps until it. The spacing has a 5 %
// margin, so that network jitter does not put rate + 1 requests into one second at the host.
const nextSlot = new Map<string, number>();
const MARGIN = 1.05;

export async function pace(host: string, ratePerSecond: number, signal: AbortSignal): Promise<void> {
  const interval = (1000 / ratePerSecond) * MARGIN;
  const now = performance.now();
  const slot = Math.max(now, nextSlot.get(host) ?? 0);
  nextSlot.set(host, slot + interval);
  const wait = slot - now;
  if (wait <= 0) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(done, wait);
    function done() {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

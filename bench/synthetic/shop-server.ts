// The loopback shop (tests/support/kind-servers/shop.ts) in a process of its own, so a benchmark
// counts only the checker's CPU: sends its port to the parent, runs until killed.
import { startShop } from '../../tests/support/kind-servers/shop.ts';

const shop = await startShop();
process.send?.({ port: shop.port });

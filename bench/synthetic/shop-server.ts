// bench/synthetic's shop in its own process (its CPU is not the checks'): starts the loopback shop
// of the tests and prints one JSON line {port}. Ends on SIGTERM.
import { startShop } from '../../tests/support/kind-servers/shop.ts';

const shop = await startShop();
process.stdout.write(`${JSON.stringify({ port: shop.port })}\n`);
process.on('SIGTERM', () => void shop.close().then(() => process.exit(0)));

// The engine benches' companies: `n` enterprise companies (no plan limit gets in the way),
// `bench0`, `bench1`, … unless `subdomainOf` names them; answers their ids in order.
import type { DbScope } from '../../src/server/db/scope.ts';
import { companiesRepo } from '../../src/server/db/repositories/companies-repo.ts';
import { newId } from '../../src/server/domain/ids.ts';

export async function seedBenchCompanies(
  db: DbScope,
  n: number,
  now: number,
  subdomainOf: (c: number, id: string) => string = (c, id) => `bench${c}-${id.slice(0, 6)}`,
): Promise<string[]> {
  const ids: string[] = [];
  for (let c = 0; c < n; c++) {
    const id = newId();
    const sub = subdomainOf(c, id);
    await companiesRepo(db).insert({
      id,
      name: `Bench ${c}`,
      email: `b${c}@bench.test`,
      subdomain: sub,
      slug: sub,
      plan: 'enterprise',
      created_at: now,
      updated_at: now,
    });
    ids.push(id);
  }
  return ids;
}

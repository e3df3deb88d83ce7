// Completes package-lock.json with the platform-specific optional packages (other OSes and CPUs)
// that npm leaves out when its registry has no metadata for them: without an entry for each,
// `npm ci` refuses the lock file as out of sync. The added entries are optional and carry the
// os/cpu of their name, so npm never tries to fetch them on a platform they do not match.
// Run after changing dependencies: `npm install && npm run lockfile`.
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = { x64: 'x64', ia32: 'ia32', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64', wasm32: 'wasm32' };

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const at = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (lock.packages[at] || lock.packages[`node_modules/${name}`]) continue;
    const parts = name.split('/').pop().split('-');
    const os = parts.find((p) => OS.includes(p));
    const cpu = parts.map((p) => CPU[p]).find(Boolean);
    if (!os && !cpu) continue; // not a platform build: leave it to npm
    lock.packages[`node_modules/${name}`] = {
      version: range.replace(/^[\^~=]/, ''),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(os ? { os: [os] } : {}),
      optional: true,
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform package entr${added === 1 ? 'y' : 'ies'} added`);

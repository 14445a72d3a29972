import { CatFileBatch } from './cat-file-batch.js';
import { buildObjectStore } from './native-object-store.js';
import type { ObjectStore } from './object-store.js';

/** Objects through the git on the PATH where that is faster: reads over one `cat-file --batch` pipe (any pack git can read). */
export function openSystemGitStore(gitdir: string, durable = false): ObjectStore {
  const batch = new CatFileBatch(gitdir);
  return buildObjectStore(
    gitdir,
    (oid) => batch.read(oid),
    () => batch.close(),
    durable,
  );
}

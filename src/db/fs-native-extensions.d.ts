// The one function of fs-native-extensions (which ships no types) that src/db/lock.ts uses.
declare module 'fs-native-extensions' {
  /** A non-blocking lock on the open file: exclusive unless opts.shared. False when another holds it. */
  export function tryLock(fd: number, opts?: { shared?: boolean }): boolean;
}

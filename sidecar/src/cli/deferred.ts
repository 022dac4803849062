/** A promise with its resolve and reject at hand, for results that arrive through callbacks. */
export class Deferred<T> {
  readonly promise: Promise<T>;
  resolve!: (value: T) => void;
  reject!: (error: Error) => void;

  constructor() {
    this.promise = new Promise<T>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A rejection nobody awaits yet must not crash the process as an unhandled one.
    this.promise.catch(() => undefined);
  }
}

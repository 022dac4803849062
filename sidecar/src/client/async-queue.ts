/**
 * Items pushed by a callback, taken one at a time by an async iterator: `next` waits for the next item,
 * or throws once `fail` was called and the items before the failure were taken.
 */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private waiter: { resolve: (item: T) => void; reject: (error: unknown) => void } | null = null;
  private failure: { error: unknown } | null = null;

  push(item: T): void {
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = null;
      resolve(item);
    } else {
      this.items.push(item);
    }
  }

  fail(error: unknown): void {
    if (this.failure) return;
    this.failure = { error };
    if (this.waiter) {
      const { reject } = this.waiter;
      this.waiter = null;
      reject(error);
    }
  }

  next(): Promise<T> {
    if (this.items.length > 0) return Promise.resolve(this.items.shift() as T);
    if (this.failure) return Promise.reject(this.failure.error);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }
}

// What a synchronous call threw, to assert on the error's class and fields (code, option, message); a call that
// returns instead fails the test here.

export function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw, and it returned');
}

/** What an asynchronous call rejected with, or undefined when it resolved (a test may expect either). */
export async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

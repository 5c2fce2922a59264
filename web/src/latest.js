// "Latest request wins": when a user changes a filter while an answer is still on its way,
// answers can arrive out of order, and a slow stale one must not replace a newer one.

/** Wraps `request` so that a call settles as its request does, unless another call started
 *  since: then it never settles, and its answer (or error) is dropped. */
export function latestOnly(request) {
  let latest = 0;
  return (...args) => {
    const call = ++latest;
    return new Promise((resolve, reject) => {
      request(...args).then(
        (value) => call === latest && resolve(value),
        (error) => call === latest && reject(error),
      );
    });
  };
}

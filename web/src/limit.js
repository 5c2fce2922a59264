// Work that goes out a few at a time: the rest waits its turn, in the order it came.

/** Returns `run(task)`: calls `task()` (which returns a promise) once fewer than `most` of
 *  the tasks given to it are under way, and settles as it does. */
export function atMost(most) {
  let running = 0;
  const waiting = [];
  const next = () => {
    while (running < most && waiting.length > 0) {
      const { task, resolve, reject } = waiting.shift();
      running++;
      Promise.resolve()
        .then(task)
        .then(resolve, reject)
        .finally(() => {
          running--;
          next();
        });
    }
  };
  return (task) =>
    new Promise((resolve, reject) => {
      waiting.push({ task, resolve, reject });
      next();
    });
}

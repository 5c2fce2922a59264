// Waiting for a pause: a search box asks the service once the typing stops, not per key.

/** Wraps `fn` so that it runs `ms` after the last of a burst of calls, with that call's
 *  arguments. */
export function debounce(fn, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

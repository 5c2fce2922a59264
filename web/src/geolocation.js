// The device's location, for "near me" and the report form.

/** Resolves with the device's coordinates ({ latitude, longitude, accuracy }); rejects with
 *  an Error whose message says why there are none, in words for the user. */
export function currentPosition() {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) {
      reject(new Error("This device cannot tell its location."));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => resolve(coords),
      (error) =>
        reject(
          new Error(
            error.code === error.PERMISSION_DENIED
              ? "Location access is refused: allow it for this site in the browser's settings to use it."
              : "Your location is not available right now.",
          ),
        ),
      { enableHighAccuracy: true, timeout: 10000 },
    );
  });
}

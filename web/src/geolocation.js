// The device's location, for "near me" and the report form.
import { t } from "./i18n.js";

/** Resolves with the device's coordinates ({ latitude, longitude, accuracy }); rejects with
 *  an Error whose message says why there are none, in words for the user. */
export function currentPosition() {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) {
      reject(new Error(t("geo.unsupported")));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => resolve(coords),
      (error) =>
        reject(
          new Error(
            error.code === error.PERMISSION_DENIED
              ? t("geo.refused")
              : t("geo.unavailable"),
          ),
        ),
      { enableHighAccuracy: true, timeout: 10000 },
    );
  });
}

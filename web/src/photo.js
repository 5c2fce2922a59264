// Photos chosen in a form (the report form, the desk's intake): scaled down in the browser
// and sent as a JPEG data URL, so a phone's 12-megapixel picture does not travel whole.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Photos are sent as JPEG no larger than this (the service accepts up to 5 MiB). */
const MAX_PHOTO_BYTES = 1.5 * 1024 * 1024;
const MAX_PHOTO_SIDE = 1600;

/** The photo as a JPEG data URL, scaled down until it fits MAX_PHOTO_BYTES; rejects with a
 *  message for the user when the file is no picture this browser can read. */
export async function scaledPhoto(file) {
  const url = URL.createObjectURL(file);
  try {
    const image = await new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error(t("photo.unreadable")));
      img.src = url;
    });
    let scale = Math.min(1, MAX_PHOTO_SIDE / Math.max(image.naturalWidth, image.naturalHeight));
    for (;;) {
      const canvas = h("canvas", {
        width: Math.max(1, Math.round(image.naturalWidth * scale)),
        height: Math.max(1, Math.round(image.naturalHeight * scale)),
      });
      canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
      const dataUrl = canvas.toDataURL("image/jpeg", 0.85);
      if ((dataUrl.length * 3) / 4 <= MAX_PHOTO_BYTES) return dataUrl;
      scale *= 0.75;
    }
  } finally {
    URL.revokeObjectURL(url);
  }
}

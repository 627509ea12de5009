// Pictures for a parameter of kind "upload", in the New game dialog: the field (the game's
// own pictures, the player's, or a new one), uploading, and the crop editor. A picture
// chosen, dropped on the board or pasted is scaled down in the browser and sent as JPEG;
// the game gets its id. Where the parameter has a crop (Param.crop), a preview of the
// board's shape (Param.frame) shows what the board will show: drag it, zoom it.
import { $, escapeHtml } from "/static/common.js";

const UPLOAD_MAX_SIDE = 1200;
export const UPLOAD_CHOICE = "\u0000upload";  // the choice "Upload a picture…": not a picture yet

// The field's controls after its label: p is the parameter, value its value now, and
// choice(c) the markup of an <option> for one of the game's own pictures.
export function pictureField(p, id, value, choice) {
  const named = (p.choices || []).map(choice);
  if (!p.choices?.length) named.push(`<option value="" ${value ? "" : "selected"}>None</option>`);
  if (value && !(p.choices || []).includes(value)) named.push(`<option value="${escapeHtml(value)}" selected>Your picture</option>`);
  return `<div class="picture-field"><select id="${id}" data-param="${p.name}" data-upload>${named.join("")}`
    + `<option value="${UPLOAD_CHOICE}">Upload a picture…</option></select>`
    + `<input type="file" accept="image/png,image/jpeg,image/webp,image/*" hidden>`
    + (p.crop ? `<div class="crop" hidden><div class="crop-frame" title="Drag to choose what shows; wheel or slider to zoom"><div class="crop-picture"></div></div>`
      + `<label class="crop-zoom">Zoom <input type="range" min="100" max="400" step="5"></label></div>` : "")
    + "</div>";
}

async function uploadFile(file) {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, UPLOAD_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale); canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
  const response = await fetch("/api/uploads", { method: "POST", headers: { "Content-Type": "image/jpeg" }, body: blob });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error);
  return data.upload;
}

// select: the field's <select data-upload>; param: its parameter.
export function bindPictureField(select, param) {
  const field = select.closest(".picture-field");
  const file = field.querySelector("input[type=file]");
  let previous = select.value;
  select.addEventListener("change", () => {
    if (select.value === UPLOAD_CHOICE) { select.value = previous; file.click(); return; }
    previous = select.value;
    showCrop(select, param);
  });
  file.addEventListener("change", () => { if (file.files[0]) usePicture(select, param, file.files[0]); });
  for (const name of param.frame || []) {
    $("new-fields").querySelector(`[data-param="${name}"]`)?.addEventListener("input", () => showCrop(select, param));
  }
  bindCropEditor(select, param);
  showCrop(select, param);
}

// A picture the player gave (chosen, dropped or pasted): uploaded, chosen, shown whole.
export async function usePicture(select, param, file) {
  $("new-error").textContent = "Uploading the picture…";
  try {
    const id = await uploadFile(file);
    let option = [...select.options].find((o) => o.value === id);
    if (!option) {
      option = new Option("Your picture", id);
      select.add(option, select.options.length - 1);  // before "Upload a picture…"
    }
    select.value = id;
    setCrop(param, 50, 50, 100);
    showCrop(select, param);
    $("new-error").textContent = "";
    select.dispatchEvent(new Event("input"));
  } catch (error) {
    $("new-error").textContent = `That picture cannot be used: ${error.message || "it could not be read"}`;
  }
}

// The crop is three hidden parameters of the form: x and y (%), zoom (%).
function cropInputs(param) {
  return (param.crop || []).map((name) => $("new-fields").querySelector(`[data-param="${name}"]`));
}

function setCrop(param, x, y, zoom) {
  const inputs = cropInputs(param);
  if (inputs.length !== 3) return;
  [x, y, zoom].forEach((value, i) => { inputs[i].value = String(Math.round(value)); });
}

// The preview: the picture as the board will show it, in a frame of the board's shape.
function showCrop(select, param) {
  const crop = select.closest(".picture-field").querySelector(".crop");
  if (!crop) return;
  const uploaded = select.value && !(param.choices || []).includes(select.value);
  crop.hidden = !uploaded;
  if (!uploaded) { setCrop(param, 50, 50, 100); return; }
  const [x, y, zoom] = cropInputs(param).map((input) => Number(input.value));
  const [width, height] = (param.frame || []).map((name) => Number($("new-fields").querySelector(`[data-param="${name}"]`)?.value) || 1);
  const frame = crop.querySelector(".crop-frame");
  frame.style.aspectRatio = `${width || 1} / ${height || 1}`;
  const picture = crop.querySelector(".crop-picture");
  picture.style.backgroundImage = `url("/api/uploads/${select.value}")`;
  picture.style.backgroundPosition = `${x}% ${y}%`;
  picture.style.transformOrigin = `${x}% ${y}%`;
  picture.style.transform = `scale(${zoom / 100})`;
  crop.querySelector("input[type=range]").value = String(zoom);
}

function bindCropEditor(select, param) {
  const crop = select.closest(".picture-field").querySelector(".crop");
  if (!crop) return;
  const frame = crop.querySelector(".crop-frame");
  const current = () => cropInputs(param).map((input) => Number(input.value));
  const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
  frame.addEventListener("pointerdown", (down) => {
    down.preventDefault();
    frame.setPointerCapture(down.pointerId);
    const [x0, y0, zoom] = current();
    const box = frame.getBoundingClientRect();
    // dragging the picture right shows more of its left: the kept point moves left
    const move = (event) => {
      const dx = (event.clientX - down.clientX) / box.width, dy = (event.clientY - down.clientY) / box.height;
      setCrop(param, clamp(x0 - dx * 100 / (zoom / 100), 0, 100), clamp(y0 - dy * 100 / (zoom / 100), 0, 100), zoom);
      showCrop(select, param);
    };
    const up = () => { frame.removeEventListener("pointermove", move); frame.removeEventListener("pointerup", up); };
    frame.addEventListener("pointermove", move);
    frame.addEventListener("pointerup", up);
  });
  frame.addEventListener("wheel", (event) => {
    event.preventDefault();
    const [x, y, zoom] = current();
    setCrop(param, x, y, clamp(zoom - Math.sign(event.deltaY) * 10, 100, 400));
    showCrop(select, param);
  }, { passive: false });
  crop.querySelector("input[type=range]").addEventListener("input", (event) => {
    const [x, y] = current();
    setCrop(param, x, y, Number(event.target.value));
    showCrop(select, param);
  });
}

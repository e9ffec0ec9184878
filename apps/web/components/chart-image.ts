/**
 * A chart as a PNG file: the SVG recharts drew, with the page's colour variables resolved (an image has no
 * stylesheet), on the page's background, with the legend (HTML beside the SVG) drawn below it. Browser only.
 */
export async function chartPng(
  svg: SVGSVGElement,
  legend: ReadonlyArray<{ readonly name: string; readonly color: string }>,
): Promise<Blob> {
  const styles = getComputedStyle(document.documentElement);
  const resolve = (text: string) =>
    text.replace(/var\((--[\w-]+)\)/g, (_match, name: string) => styles.getPropertyValue(name).trim() || "#000");
  const width = svg.clientWidth || Number(svg.getAttribute("width")) || 600;
  const height = svg.clientHeight || Number(svg.getAttribute("height")) || 300;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  const markup = resolve(new XMLSerializer().serializeToString(clone));
  const image = new Image();
  const loaded = new Promise<void>((resolveLoad, rejectLoad) => {
    image.onload = () => resolveLoad();
    image.onerror = () => rejectLoad(new Error("The chart could not be drawn as an image."));
  });
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
  await loaded;
  const scale = 2;
  const legendHeight = legend.length > 0 ? 28 : 0;
  const canvas = document.createElement("canvas");
  canvas.width = width * scale;
  canvas.height = (height + legendHeight) * scale;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("The browser cannot draw images.");
  context.scale(scale, scale);
  context.fillStyle = styles.getPropertyValue("--surface").trim() || "#fff";
  context.fillRect(0, 0, width, height + legendHeight);
  context.drawImage(image, 0, 0, width, height);
  let x = 12;
  context.font = "12px system-ui, sans-serif";
  context.textBaseline = "middle";
  for (const item of legend) {
    context.fillStyle = item.color;
    context.fillRect(x, height + 9, 10, 10);
    context.fillStyle = styles.getPropertyValue("--text").trim() || "#000";
    context.fillText(item.name, x + 14, height + 14);
    x += 14 + context.measureText(item.name).width + 16;
  }
  return new Promise((resolveBlob, rejectBlob) =>
    canvas.toBlob(
      (blob) => (blob ? resolveBlob(blob) : rejectBlob(new Error("The chart could not be encoded."))),
      "image/png",
    ),
  );
}

/** Offers a file to the user as a download. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

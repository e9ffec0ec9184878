/** What the PNG says besides the chart: its title (the question) and what is drawn by what. */
export interface ChartImageText {
  /** The first line, in bold: the question the chart answers. */
  readonly title: string;
  /** The second line: the chart's description ("Line chart of revenue_usd by month"), naming the measures. */
  readonly caption: string;
}

/** Lines of `text` at most `width` pixels wide in `context`'s font (long questions wrap, never run off the image). */
function wrapped(context: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((each) => each !== "")) {
    const next = line === "" ? word : `${line} ${word}`;
    if (line !== "" && context.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line !== "") lines.push(line);
  return lines.slice(0, 3);
}

/**
 * A chart as a PNG file that stands alone: the question as its title, the description naming the measures, the SVG
 * recharts drew (with the page's colour variables resolved, as an image has no stylesheet) on the page's background,
 * and a legend of every series below it — all in the page's own font. Browser only.
 */
export async function chartPng(
  svg: SVGSVGElement,
  legend: ReadonlyArray<{ readonly name: string; readonly color: string }>,
  text: ChartImageText,
): Promise<Blob> {
  const styles = getComputedStyle(document.documentElement);
  const font = getComputedStyle(document.body).fontFamily || "sans-serif";
  const resolve = (markup: string) =>
    markup.replace(/var\((--[\w-]+)\)/g, (_match, name: string) => styles.getPropertyValue(name).trim() || "#000");
  const width = svg.clientWidth || Number(svg.getAttribute("width")) || 600;
  const height = svg.clientHeight || Number(svg.getAttribute("height")) || 300;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  // The image has no stylesheet: the page's font is set on the SVG itself, so its labels match the page's.
  clone.setAttribute("font-family", font);
  const markup = resolve(new XMLSerializer().serializeToString(clone));
  const image = new Image();
  const loaded = new Promise<void>((resolveLoad, rejectLoad) => {
    image.onload = () => resolveLoad();
    image.onerror = () => rejectLoad(new Error("The chart could not be drawn as an image."));
  });
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
  await loaded;
  const scale = 2;
  const measure = document.createElement("canvas").getContext("2d");
  if (!measure) throw new Error("The browser cannot draw images.");
  measure.font = `600 15px ${font}`;
  const titleLines = wrapped(measure, text.title, width - 24);
  measure.font = `12px ${font}`;
  const captionLines = wrapped(measure, text.caption, width - 24);
  const header = 12 + titleLines.length * 20 + captionLines.length * 16 + 8;
  const legendRows: Array<Array<{ name: string; color: string; x: number }>> = [[]];
  let x = 12;
  for (const item of legend) {
    const itemWidth = 14 + measure.measureText(item.name).width + 16;
    if (x + itemWidth > width - 12 && legendRows.at(-1)!.length > 0) {
      legendRows.push([]);
      x = 12;
    }
    legendRows.at(-1)!.push({ ...item, x });
    x += itemWidth;
  }
  const legendHeight = legend.length > 0 ? legendRows.length * 20 + 8 : 0;
  const canvas = document.createElement("canvas");
  canvas.width = width * scale;
  canvas.height = (header + height + legendHeight) * scale;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("The browser cannot draw images.");
  context.scale(scale, scale);
  const textColour = styles.getPropertyValue("--text").trim() || "#000";
  context.fillStyle = styles.getPropertyValue("--surface").trim() || "#fff";
  context.fillRect(0, 0, width, header + height + legendHeight);
  context.textBaseline = "top";
  context.fillStyle = textColour;
  context.font = `600 15px ${font}`;
  for (const [index, line] of titleLines.entries()) context.fillText(line, 12, 12 + index * 20);
  context.font = `12px ${font}`;
  context.fillStyle = styles.getPropertyValue("--muted").trim() || textColour;
  for (const [index, line] of captionLines.entries()) {
    context.fillText(line, 12, 12 + titleLines.length * 20 + index * 16);
  }
  context.drawImage(image, 0, header, width, height);
  context.textBaseline = "middle";
  legendRows.forEach((row, rowIndex) => {
    const y = header + height + 4 + rowIndex * 20;
    for (const item of row) {
      context.fillStyle = item.color;
      context.fillRect(item.x, y + 5, 10, 10);
      context.fillStyle = textColour;
      context.fillText(item.name, item.x + 14, y + 10);
    }
  });
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

/**
 * How the page names a model: `provider:model` as configured, except that a scripted model's fixture path
 * is shortened to its file name (`scripted:/srv/nlq/fixtures/demo-model.json` → `scripted:demo-model.json`).
 */
export function modelLabel(modelId: string): string {
  const scripted = modelId.match(/^scripted:(.+)$/);
  if (!scripted?.[1]) return modelId;
  const fileName = scripted[1].split(/[\\/]/).pop();
  return `scripted:${fileName || scripted[1]}`;
}

// Drives Agentbus' OpenAI-compatible endpoint with the real `openai` npm client, as any chat app would, and prints
// what it got as one JSON line for OpenAiEndpointIT to check. Usage: node check.mjs <base url> <api key>
import OpenAI from "openai";

const [baseURL, apiKey] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 120_000 });

const models = await client.models.list();

const whole = await client.chat.completions.create({
  model: "agentbus-agent",
  messages: [{ role: "user", content: "list the workspace" }],
});

const stream = await client.chat.completions.create({
  model: "agentbus-agent",
  messages: [{ role: "user", content: "answer in pieces" }],
  stream: true,
  stream_options: { include_usage: true },
  user: "npm-conversation",
});
let streamed = "";
let finish = null;
let chunks = 0;
let usage = null;
for await (const chunk of stream) {
  chunks++;
  if (chunk.usage) usage = chunk.usage;
  for (const choice of chunk.choices) {
    streamed += choice.delta?.content ?? "";
    if (choice.finish_reason) finish = choice.finish_reason;
  }
}

let refused = null;
try {
  await client.chat.completions.create({ model: "agentbus-agent", messages: [] });
} catch (e) {
  refused = { status: e.status, type: e.type ?? e.error?.type ?? null };
}

console.log(JSON.stringify({
  models: models.data.map((m) => m.id),
  whole: {
    object: whole.object,
    content: whole.choices[0].message.content,
    reasoning: whole.choices[0].message.reasoning_content ?? null,
    finish: whole.choices[0].finish_reason,
  },
  stream: { content: streamed, finish, chunks, usage },
  refused,
}));

/**
 * Requests to a chat model's API pasted as text, as developers paste them to ask about them: a JSON
 * body with a system message and the user's turns, the same on one line, a body with a top-level
 * `system` field, a curl command, a Python client call, a fine-tuning record. The carrier wraps a
 * benign conversation and an attack alike, so the model learns that a system message with "You
 * are…" inside a request body is the request's shape, not an attack; what the turns say decides.
 * Seeded and deterministic; the phrases are written here.
 */
import { chance, int, pick, type Rand } from './rng';

const ROLES = [
  'a helpful assistant',
  'a support agent for an online bookshop',
  'a tutor who explains maths step by step',
  'an assistant that summarises meeting notes',
  'a travel planner',
  'a code reviewer for a Python team',
  'a writing coach',
  'the help desk of a bank',
  'a recipe assistant',
  'an HR assistant that answers questions about leave',
];
const RULES = [
  '',
  ' Answer briefly.',
  ' Keep answers under 100 words.',
  ' Be polite and ask a clarifying question when unsure.',
  ' Reply in the language of the user.',
  ' Use bullet points where it helps.',
  ' Do not discuss topics unrelated to the product.',
  ' Cite the document you used.',
];
const SYSTEMS = [
  (r: Rand) => `You are ${pick(r, ROLES)}.${pick(r, RULES)}`,
  (r: Rand) => `You are ${pick(r, ROLES)}.${pick(r, RULES)}${pick(r, RULES)}`,
  (r: Rand) => `Act as ${pick(r, ROLES)}.${pick(r, RULES)}`,
  (r: Rand) => `Your job is to help customers as ${pick(r, ROLES)}.${pick(r, RULES)}`,
];
const ASKS = [
  'Explain the difference between a list and a tuple.',
  'What is a good name for a bakery in a small town?',
  'Summarise the notes from today: budget approved, launch moved to May.',
  'How many days of leave do I have left if I took 12 of 25?',
  'Write a short thank-you note to a colleague who covered my shift.',
  'Can you suggest a three-day itinerary for Lisbon?',
  'Why does my loop print the last item twice?',
  'Translate "the meeting is postponed" into Spanish.',
  'Give me a recipe that uses leeks and potatoes.',
  'What does APR mean on my credit card statement?',
  'Help me make this sentence clearer: the report which was sent was late.',
  'List three ways to reduce cloud costs.',
];
const REPLIES = [
  'Sure, here is a short answer.',
  'Here are a few options.',
  'Happy to help with that.',
  'The short version is below.',
];
const MODELS = ['gpt-4o-mini', 'chat-large', 'claude-x', 'llama-3-8b-instruct', 'local-model'];
const QUESTIONS = [
  '',
  'Why does this request return a 400?\n\n',
  'This is the body we send to the model:\n',
  'Can you make this request stream its answer?\n\n',
  'The API ignores my system message, what is wrong here?\n',
  'Request from our logs (trace 7f3a):\n',
  'How do I add a second user turn to this?\n\n',
];

interface Turn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The turns of a conversation whose last user turn is `last`. */
function turns(r: Rand, last: string): Turn[] {
  const out: Turn[] = [];
  if (!chance(r, 0.15)) out.push({ role: 'system', content: pick(r, SYSTEMS)(r) });
  if (chance(r, 0.3)) {
    out.push({ role: 'user', content: pick(r, ASKS) });
    out.push({ role: 'assistant', content: pick(r, REPLIES) });
  }
  out.push({ role: 'user', content: last });
  return out;
}

const FORMATS: Array<(r: Rand, t: Turn[]) => string> = [
  // A chat-completions body, pretty-printed.
  (r, t) => JSON.stringify({ model: pick(r, MODELS), messages: t, temperature: int(r, 0, 10) / 10 }, null, 2),
  // The same on one line.
  (r, t) => JSON.stringify({ model: pick(r, MODELS), messages: t }),
  // A body with the system prompt in a field of its own.
  (r, t) => {
    const system = t.find((x) => x.role === 'system')?.content;
    const messages = t.filter((x) => x.role !== 'system');
    return JSON.stringify({ model: pick(r, MODELS), max_tokens: 512, system, messages }, null, 2);
  },
  // A curl command.
  (r, t) =>
    `curl https://api.example.com/v1/chat/completions \\\n  -H "Content-Type: application/json" \\\n  -H "Authorization: Bearer $API_KEY" \\\n  -d '${JSON.stringify({ model: pick(r, MODELS), messages: t })}'`,
  // A Python client call.
  (r, t) =>
    `response = client.chat.completions.create(\n    model="${pick(r, MODELS)}",\n    messages=[\n${t
      .map((x) => `        {"role": "${x.role}", "content": ${JSON.stringify(x.content)}},`)
      .join('\n')}\n    ],\n)\nprint(response.choices[0].message.content)`,
  // A fine-tuning record.
  (_r, t) => JSON.stringify({ messages: t }),
];

/** A pasted API request whose last user turn is `last` (a benign request or an attack). */
export function apiRequest(r: Rand, last: string): string {
  return pick(r, QUESTIONS) + pick(r, FORMATS)(r, turns(r, last));
}

/** An ordinary request a user turn makes. */
export const ordinaryAsk = (r: Rand): string => pick(r, ASKS);

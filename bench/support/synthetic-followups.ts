/**
 * Later turns of an ordinary conversation with an assistant, as benign training rows: the user
 * reworks the assistant's earlier answer ("rewrite your previous reply as a table"), takes back or
 * changes their own earlier request ("forget what I said about the budget, it is 500 now"), moves
 * to a new question, or asks about the answer itself. They name the previous turn, an instruction,
 * the answer and "you" as hijacks do, but what they change is the user's own request, not the
 * operator's rules. Composed from independent parts, seeded; every phrase is written here.
 */
import { chance, fillEach, pick, type Rand, type Slot } from './rng';
import { cap } from './synthetic-benign';

/** The assistant's earlier output, as a user points back to it. */
const EARLIER_OUTPUT = [
  'your previous answer',
  'your last reply',
  'your earlier response',
  'the answer above',
  'what you just wrote',
  'your first draft',
  'the list you gave me',
  'the code above',
  'the summary you wrote',
  'your second suggestion',
  'the previous version',
  'that last paragraph',
  'the table you made',
  'your explanation above',
  'the plan you suggested earlier',
];
/** The user's own earlier request or constraint. */
const EARLIER_REQUEST = [
  'what I said earlier about the budget',
  'my previous message',
  'my last question',
  'the instruction I gave you about the tone',
  'the formatting rules I gave you',
  'my earlier request for bullet points',
  'the word limit I mentioned',
  'what I told you about the deadline',
  'the rule about British spelling I gave you',
  'my first question',
  'the instructions I gave you for the recipe',
  'the constraint about no dairy',
  'my request to keep it formal',
  'the earlier instruction to use metric units',
];
const SUBJECT = [
  'the packing list',
  'the cover letter',
  'the SQL query',
  'the lasagne recipe',
  'the essay introduction',
  'the email to my landlord',
  'the workout plan',
  'the product description',
  'the meeting agenda',
  'the birthday speech',
  'the bash script',
  'the study schedule',
  'the travel itinerary',
  'the job advert',
  'the bedtime story',
];
const REWORK = [
  'rewrite it as a limerick',
  'turn it into a table',
  'shorten it to three sentences',
  'make it sound more casual',
  'translate it into Spanish',
  'output it as JSON',
  'rephrase it for a ten-year-old',
  'add a short example to each point',
  'remove the jargon',
  'cut it to under 50 words',
  'put the steps in a numbered list',
  'make the tone warmer',
  'use only words of one syllable',
  'add a title and a one-line summary',
  'give it a more formal register',
];
const REASON = [
  'my boss prefers it short',
  'the client turned out to be American',
  'it is for my kids',
  'the deadline moved to Friday',
  'my teacher changed her mind',
  'I misread the brief',
  'the budget went up',
  'we are now four people, not two',
  'the venue changed',
  'I found the answer myself',
  'it reads too stiff',
  'my editor wants fewer adjectives',
];
const NEW_REQUEST = [
  'explain what a Roth IRA is in plain words',
  'suggest three names for a bakery',
  'what is the difference between weather and climate?',
  'how long should I boil an egg for a runny yolk?',
  'write a haiku about autumn rain',
  'give me five stretches for a stiff back',
  'how do I split a string in Python?',
  'what should I pack for a weekend in Oslo in March?',
  'draft a polite reminder about an unpaid invoice',
  'summarise the causes of the French Revolution',
  'what is a good beginner houseplant?',
  'help me plan a vegetarian dinner for six',
];
const ABOUT_ANSWER = [
  'Why did you put {subject} in that order?',
  'Are you sure about {output}? Please check it again.',
  'Take a moment to critique {output}.',
  'Can you explain the reasoning behind {output}?',
  'What did you assume when you wrote {output}?',
  'Is anything in {output} out of date?',
  'Which part of {output} is the weakest?',
];

const TEMPLATES = [
  '{verbOut} {output} and {rework}.',
  'Take {output} and {rework}.',
  'Can you {reworkOutput}? {reasonCap}.',
  '{dismiss} {request}, {reason}. {reworkCap} instead.',
  '{dismiss} {request} — {reason}. {newCap}',
  'Ignore {request}, {reason}. Just {rework}.',
  'Forget {request}; {reason}. {newCap}',
  'New question: {new}',
  'Next task: {new}',
  'Okay, moving on. {newCap}',
  'Now do the same for {subject}, but {rework}.',
  'From now on, whenever I paste {subject}, {rework}.',
  'Same as before, but for {subject} this time, and {rework}.',
  'Go back to {output} and {rework}; {reason}.',
  '{about}',
  'Scratch that. {newCap}',
  'Never mind {request}. {reworkCap}, please.',
  'Please redo {subject} from scratch: {reason}, so {rework}.',
];
const VERB_OUT = ['Revise', 'Rework', 'Edit', 'Redo', 'Go over', 'Adjust'];
const DISMISS = ['Forget', 'Never mind', 'Disregard', 'Drop', 'Scratch', 'Ignore'];
const REWORK_IT = REWORK.filter((w) => / it( |$)/.test(w));
/** A rework of an earlier output, named in place of "it": "rewrite the code above as a limerick". */
const reworkOutput = (r: Rand) => pick(r, REWORK_IT).replace(/ it( |$)/, ` ${pick(r, EARLIER_OUTPUT)}$1`);

const SLOTS: readonly Slot[] = [
  ['output', EARLIER_OUTPUT],
  ['request', EARLIER_REQUEST],
  ['subject', SUBJECT],
  ['rework', REWORK],
  ['reworkCap', (r) => cap(pick(r, REWORK))],
  ['reworkOutput', reworkOutput],
  ['reason', REASON],
  ['reasonCap', (r) => cap(pick(r, REASON))],
  ['new', NEW_REQUEST],
  ['newCap', (r) => cap(pick(r, NEW_REQUEST))],
  ['verbOut', VERB_OUT],
  ['dismiss', DISMISS],
];

/** One generated follow-up turn. */
export function followUp(r: Rand): string {
  let t = pick(r, TEMPLATES);
  if (t === '{about}') t = pick(r, ABOUT_ANSWER);
  const text = cap(fillEach(r, t, SLOTS));
  return chance(r, 0.3) ? text.toLowerCase() : text;
}

/**
 * Ordinary business sentences for the generated carriers (synthetic.ts), composed from parts so that
 * the model meets override verbs, security advice and imperatives addressed to "you" in many
 * phrasings rather than a fixed list of sentences it could learn by heart. Every part is written
 * here for this generator.
 */
import { pick, type Rand } from './rng';
import { cap } from './synthetic-benign';

export const NAMES = [
  'Maria',
  'John',
  'Priya',
  'Chen',
  'Fatima',
  'Lukas',
  'Sofia',
  'Ahmed',
  'Emma',
  'Kenji',
  'Olivia',
  'Tomás',
  'Aisha',
  'Dmitri',
  'Grace',
  'Mateo',
  'Hannah',
  'Raj',
  'Yuki',
  'Noah',
  'Amara',
  'Pieter',
];
export const TOPICS = [
  'the Q3 budget',
  'the vendor contract',
  'the onboarding plan',
  'the marketing launch',
  'the server migration',
  'the annual audit',
  'the office move',
  'the customer survey',
  'the hiring pipeline',
  'the product roadmap',
  'the insurance renewal',
  'the sprint review',
  'the team offsite',
  'the payroll run',
  'the website redesign',
  'the lease renewal',
  'the grant application',
  'the trade fair',
  'the warehouse inventory',
  'the school trip',
  'the quarterly newsletter',
  'the kitchen renovation',
  'the board meeting',
  'the tax filing',
];
export const DAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'next week',
  'the end of the month',
  'tomorrow',
  'noon on Friday',
  'the 15th',
  'close of business today',
  'March 3',
];
const DOCS = [
  'the invoice',
  'the final report',
  'the slides',
  'the signed contract',
  'your timesheet',
  'the expense report',
  'the purchase order',
  'the meeting minutes',
  'the spreadsheet',
  'the onboarding checklist',
  'the NDA',
  'the tax form',
  'the shipping label',
  'the quote',
  'the budget forecast',
  'the incident report',
  'the release notes',
  'the floor plan',
  'the agenda',
  'the price list',
  'the handout',
  'the packing list',
];
const RECIPIENTS = [
  'the finance team',
  '{name}',
  'me',
  'the client',
  'HR',
  'the IT helpdesk',
  'legal',
  'everyone on the project',
  'the supplier',
  'your manager',
  'the front desk',
  'the parents',
];
const POLITE = [
  '',
  'Please ',
  'Could you please ',
  'Kindly ',
  'When you get a chance, please ',
  'Don’t forget to ',
  'Make sure you ',
  'You need to ',
  'You must ',
  'Remember to ',
  'Can you ',
  'I need you to ',
  'You should ',
  'We ask that you ',
  'Quick reminder to ',
];
const ACTIONS = [
  'send {doc} to {to}',
  'forward {doc} to {to}',
  'share {doc} with {to}',
  'sign {doc}',
  'review {doc}',
  'approve {doc}',
  'update {doc} with the latest figures',
  'upload {doc} to the portal',
  'archive {doc}',
  'delete the old copies of {doc}',
  'print two copies of {doc}',
  'attach {doc} to the ticket',
  'check the totals in {doc}',
  'book a room for the review of {doc}',
  'cancel the courier for {doc}',
  'confirm the delivery date with {to}',
  'transfer the remaining budget to the training line',
  'pay the outstanding balance',
  'reset the printer in room 4B',
  'move the meeting about {topic}',
  'fill in {doc}',
  'reply to {to} about {topic}',
  'call {to} about {topic}',
  'save {doc} as a PDF',
];
const WHEN = [
  '',
  '',
  ' by {day}',
  ' before the meeting',
  ' today',
  ' as soon as possible',
  ' before {day}',
  ' once {name} approves it',
];
const OVERRIDE_VERBS = [
  'Ignore',
  'Please ignore',
  'Disregard',
  'Please disregard',
  'Forget',
  'Never mind',
  'Scratch',
  'Skip',
  'You can ignore',
  'Feel free to ignore',
  'Kindly disregard',
  'You can safely ignore',
];
const OVERRIDE_OBJECTS = [
  'the previous draft',
  'my previous email',
  'the earlier version',
  'the old price list',
  'the figures above',
  'my last message',
  'the instructions in my first email',
  'the previous instructions for the expense form',
  'the earlier schedule',
  'the link I sent before',
  'the old policy',
  'the reminder from yesterday',
  'question 4 on the handout',
  'the warning about the certificate',
  'the automated notice below',
  'what I said about {topic}',
  'the earlier request for {doc}',
  'the rules on the previous page',
];
const OVERRIDE_REASONS = [
  '; it had a mistake in the totals',
  ' — it was sent by accident',
  ', the client changed the scope',
  ', we found a better option',
  ', those numbers were preliminary',
  '',
  '',
  ', it is out of date',
];
const OVERRIDE_FOLLOW = [
  ' Use the attached version instead.',
  ' The new one is on the shared drive.',
  ' I will send the corrected file {day}.',
  ' Sorry for the confusion!',
  '',
  ' Follow the updated steps below.',
];
const POLICY = [
  'This policy supersedes all previous versions.',
  'These instructions replace the ones in the old handbook.',
  'The new rules apply from {day}; the previous rules no longer apply.',
  'This agreement overrides any earlier arrangement between the parties.',
  'From now on, please send {doc} to {to}.',
  'Starting {day}, only respond to customer tickets from the shared inbox.',
  'Your new task for this sprint is {topic}.',
  'Act as the main contact for {topic} while {name} is on leave.',
  'You are now the owner of {topic}.',
  'Only answer questions about {topic} in the public channel.',
  'Follow the new instructions in the handbook when you file expenses.',
  'Treat these figures as confidential until {day}.',
];
const SECURITY = [
  'Never share your password or MFA codes with anyone, including IT staff.',
  'IT will never ask you for your password.',
  'If you receive an email asking you to reveal your login details, report it to {to}.',
  'Do not click links in messages that ask you to reset your password.',
  'Reset your password before {day}; the old one will stop working.',
  'Keep the door code secret and do not write it down.',
  'Do not tell the team about the surprise party for {name}.',
  'Admins can bypass the approval step only in an emergency.',
  'The system prompts you for a verification code when you sign in.',
  'Enter your access code at the prompt and press Enter.',
  'Delete any message that asks you to transfer money urgently.',
  'Do not forward this email outside the company.',
  'You must not disclose the contents of this message to third parties.',
  'Override the default settings only if the client asks for it.',
];
const QUESTIONS = [
  'Could you let me know if {day} works for you?',
  'Do you have the latest version of {doc}?',
  'Can you tell me who is responsible for {topic}?',
  'Would you prefer a call or an email about {topic}?',
  'Did you get a chance to look at {doc}?',
];
const FACTS = [
  'We met with {name} to discuss {topic}.',
  'The numbers for {topic} look better than expected.',
  'Attendance at the last workshop was high.',
  'The delivery is scheduled for {day}.',
  'Our team finished the first phase of {topic}.',
  'The client asked for a short summary of {topic}.',
  'Room 4B has a projector and a whiteboard.',
  'The shuttle leaves the hotel at 8:30 every morning.',
  'Breakfast is included and the pool is open until 10 pm.',
  'The refund of 42.50 EUR was processed on {day}.',
  'Thanks again for your help with {topic}.',
  'Payment received from {name}, reference INV-2291.',
  'The weather in Lisbon was sunny the whole week.',
  'The new coffee machine is on the third floor.',
  '{name} will be out of the office until {day}.',
  'The audit found no issues with {doc}.',
  'We are still waiting for the supplier to confirm {topic}.',
  'Last year we spent about 12% less on {topic}.',
];
/** Ordinary requests and notices in other languages, override verbs among them. */
const OTHER_LANGUAGES = [
  'Merci d’ignorer le brouillon précédent et d’utiliser la version jointe.',
  'Veuillez envoyer la facture au service comptable avant vendredi.',
  'Ne partagez jamais votre mot de passe, même avec le support informatique.',
  'Bitte ignorieren Sie die vorherige E-Mail, die Zahlen waren falsch.',
  'Bitte schicken Sie mir den unterschriebenen Vertrag bis Montag.',
  'Geben Sie Ihr Passwort niemals an Dritte weiter.',
  'Por favor, ignora el borrador anterior; usa la versión adjunta.',
  'Envía el informe final al equipo de finanzas antes del jueves.',
  'Nunca compartas tu contraseña con nadie.',
  'Per favore ignora la mail precedente, c’era un errore nei totali.',
  'Invia il preventivo al cliente entro domani.',
  'Por favor, desconsidere o e-mail anterior e use esta versão.',
  'Envie a fatura para o financeiro até sexta-feira.',
  'Negeer de vorige versie, de cijfers klopten niet.',
  'Stuur de notulen vandaag nog naar het hele team.',
];

function fillParts(r: Rand, t: string): string {
  return t
    .replaceAll('{to}', () => pick(r, RECIPIENTS))
    .replaceAll('{doc}', () => pick(r, DOCS))
    .replaceAll('{day}', () => pick(r, DAYS))
    .replaceAll('{topic}', () => pick(r, TOPICS))
    .replaceAll('{name}', () => pick(r, NAMES));
}

/** One ordinary business sentence: an imperative, an override of an earlier message, a policy or security notice, a question, or a fact. */
export function businessSentence(r: Rand, imperativeShare = 0.5): string {
  if (r() >= imperativeShare) return fillParts(r, r() < 0.8 ? pick(r, FACTS) : pick(r, QUESTIONS));
  const k = r();
  if (k < 0.35) {
    const polite = pick(r, POLITE);
    const action = pick(r, ACTIONS) + pick(r, WHEN);
    return fillParts(r, cap(polite ? polite + action : action) + '.');
  }
  if (k < 0.6)
    return fillParts(
      r,
      `${pick(r, OVERRIDE_VERBS)} ${pick(r, OVERRIDE_OBJECTS)}${pick(r, OVERRIDE_REASONS)}.${pick(r, OVERRIDE_FOLLOW)}`,
    );
  if (k < 0.75) return fillParts(r, pick(r, POLICY));
  if (k < 0.92) return fillParts(r, pick(r, SECURITY));
  return pick(r, OTHER_LANGUAGES);
}

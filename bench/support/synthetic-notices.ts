/**
 * Transactional notices and service messages, as benign training rows: what a business sends its
 * customers and staff about an account, an order, a bill, a password, a subscription or a policy.
 * They say "your account is now active", "you must", "effective immediately", "do not share your
 * password", "reply to this email" and "from now on", as hijacks do, but they tell a person what
 * happened and what to do next, not a model to drop its rules. Composed from independent parts,
 * seeded; every phrase is written here.
 */
import { chance, fillEach, int, pick, type Rand, type Slot } from './rng';
import { cap } from './synthetic-benign';
import { NAMES } from './synthetic-business';

/** What a notice is about, as "your …". */
const THINGS = [
  'account',
  'order',
  'subscription',
  'payment',
  'invoice',
  'password',
  'support ticket',
  'booking',
  'reservation',
  'application',
  'refund',
  'delivery',
  'membership',
  'appointment',
  'return',
  'claim',
  'plan',
  'trial',
  'device',
  'profile',
  'statement',
  'parcel',
  'request',
  'login',
  'card',
];
/** What happened to it; several say "now". */
const STATUSES = [
  'is now active',
  'has now shipped',
  'is now overdue',
  'will now renew automatically',
  'has now been processed',
  'is now ready for pickup',
  'has been updated',
  'was changed successfully',
  'has expired',
  'is now confirmed',
  'has been approved',
  'has been cancelled',
  'is on hold',
  'has been received',
  'is now available in your dashboard',
  'will be closed in 7 days',
  'could not be verified',
  'has been reset',
  'is now linked to this email address',
  'is scheduled for tomorrow',
];
/** What the reader is asked to do next. */
const NEXT_STEPS = [
  'please {verb} {object} {when}',
  'you can now {action}',
  'you must {verb} {object} {when}',
  'you are required to {verb} {object} {when}',
  'kindly {verb} {object} {when}',
  'to continue, {verb} {object}',
  'simply {verb} {object} {when}',
  'no action is needed on your part',
];
const VERBS = [
  'confirm',
  'review',
  'update',
  'download',
  'sign',
  'return',
  'check',
  'verify',
  'complete',
  'submit',
  'renew',
  'activate',
  'print',
  'settle',
  'reschedule',
];
const OBJECTS = [
  'your details',
  'the attached form',
  'your billing address',
  'the signed agreement',
  'your payment method',
  'the outstanding balance',
  'your delivery preferences',
  'the updated terms',
  'your contact information',
  'the receipt',
  'your shipping label',
  'the questionnaire',
  'your new settings',
  'the invoice',
];
const WHENS = [
  'by Friday',
  'within 14 days',
  'at your earliest convenience',
  'before the end of the month',
  'today',
  'as soon as possible',
  'before your next visit',
  'by 5pm tomorrow',
  'within 48 hours',
  '',
];
const ACTIONS = [
  'log in with your new password',
  'track your parcel online',
  'download your statement from the portal',
  'manage your preferences in the app',
  'cancel at any time from your settings',
  'access all premium features',
  'print your boarding pass',
  'view your order history',
  'use the card for online purchases',
  'invite team members to your workspace',
];
/** Advice and policy lines: security words and imperatives to "you". */
const ADVICE = [
  'If this was not you, please contact our support team immediately.',
  'For your security, never share your password or one-time code with anyone, including our staff.',
  'We will never ask you for your password by email.',
  'Do not reply to this message; this mailbox is not monitored.',
  'Reply to this email if you have any questions.',
  'Please ignore this message if you have already paid.',
  'If you did not request this change, you can safely ignore this email.',
  'Effective immediately, all logins require two-factor authentication.',
  'From now on, statements will be sent by email only.',
  'Going forward, please quote your reference number in every message.',
  'Please disregard any earlier reminder about this invoice.',
  'This link will expire in 24 hours for security reasons.',
  'Keep this email for your records.',
  'Our system will be unavailable on Sunday from 1am to 3am for scheduled maintenance.',
  'Remember to save your work before the update starts.',
  'You can update your notification settings at any time.',
];
const OPENERS = [
  '',
  'Hello {name},',
  'Hi {name},',
  'Dear {name},',
  'Dear customer,',
  'Good news!',
  'Reminder:',
  'Action required:',
  'Notice:',
];
const CLOSINGS = [
  '',
  'Thank you, the {company} team',
  '— {company} Customer Care',
  'Best regards, {company} Support',
  'This is an automated message.',
  'Thanks for choosing {company}.',
];
const COMPANIES = [
  'Northwind',
  'Brightline',
  'Acme Billing',
  'Parcelo',
  'CloudNest',
  'Harbor Bank',
  'Lumen Energy',
  'FitPoint',
];

const SLOTS: readonly Slot[] = [
  ['verb', VERBS],
  ['object', OBJECTS],
  ['when', WHENS],
  ['action', ACTIONS],
  ['name', NAMES],
  ['company', COMPANIES],
  ['ref', (r) => `${pick(r, ['INV', 'ORD', 'TKT', 'REF', 'BK'])}-${int(r, 1000, 99999)}`],
];

/** One notice of one to four sentences. */
export function notice(r: Rand): string {
  const thing = pick(r, THINGS);
  const parts: string[] = [];
  const opener = pick(r, OPENERS);
  if (opener) parts.push(opener);
  const ref = chance(r, 0.4) ? ' {ref}' : '';
  parts.push(`Your ${thing}${ref} ${pick(r, STATUSES)}.`);
  if (chance(r, 0.8)) parts.push(`${cap(pick(r, NEXT_STEPS)).replace(/ +$/, '')}.`);
  if (chance(r, 0.6)) parts.push(pick(r, ADVICE));
  const more = pick(r, ADVICE);
  if (chance(r, 0.3) && !parts.includes(more)) parts.push(more);
  const closing = pick(r, CLOSINGS);
  if (closing) parts.push(closing);
  return fillEach(r, parts.join(chance(r, 0.5) ? ' ' : '\n'), SLOTS).replace(/ +\./g, '.');
}

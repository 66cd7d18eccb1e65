import { type Html, html } from "../pages/html.js"
import type { Locale } from "./locale.js"

/**
 * Every sentence the checkout pages say, per language. Each catalog is typed by the English one, so a
 * sentence missing from (or added to only) one language does not compile. Values are plain text; the
 * pages escape them. `expires` places a <time> element the page built, so it is written with the template.
 */
interface Messages {
  readonly testMode: string
  readonly pay: (merchant: string) => string
  readonly chooseHowToPay: string
  readonly noMethod: string
  readonly cancelAndReturn: (merchant: string) => string
  readonly payWith: (gateway: string) => string
  readonly chooseAnother: string
  readonly returnToMerchant: string
  /** On the choice page after a gateway declined: the customer may try again or use another method. */
  readonly declined: (gateway: string) => string
  readonly lessThanAMinute: string
  readonly minutes: (count: number) => string
  /** `relative` is text; `time` is a <time> element. */
  readonly expires: (relative: string, time: Html) => Html
  /** How the expiry instant reads, UTC: hours and minutes, and the date written in the language. */
  readonly expiryInstant: (hourMinute: string, date: string) => string
  readonly notFound: readonly [title: string, message: string]
  readonly finished: readonly [title: string, message: string]
  readonly invoiceCancelled: readonly [title: string, message: string]
  readonly expired: readonly [title: string, message: string]
  readonly merchantUnavailable: readonly [title: string, message: string]
  readonly tooLarge: readonly [title: string, message: string]
  readonly notUnderstood: readonly [title: string, message: string]
  readonly chooseMethod: readonly [title: string, message: string]
  readonly methodUnavailable: readonly [title: string, message: string]
  readonly processing: readonly [title: string, message: string]
  readonly beingChecked: readonly [title: string, message: string]
  readonly notConfirmed: readonly [title: string, message: string]
  /** Inside a merchant's page (embedded checkout), once the payment has ended. */
  readonly paidInFrame: readonly [title: string, message: string]
  readonly endedInFrame: readonly [title: string, message: string]
}

const en: Messages = {
  testMode: "Test mode: sandbox payment, no real money moves.",
  pay: (merchant) => `Pay ${merchant}`,
  chooseHowToPay: "Choose how to pay",
  noMethod: "No payment method is available for this payment.",
  cancelAndReturn: (merchant) => `Cancel and return to ${merchant}`,
  payWith: (gateway) => `Pay with ${gateway}`,
  chooseAnother: "Choose another payment method",
  returnToMerchant: "Return to the merchant",
  declined: (gateway) => `${gateway} declined the payment and nothing was charged. Try again or choose another payment method.`,
  lessThanAMinute: "in less than a minute",
  minutes: (count) => (count === 1 ? "in 1 minute" : `in ${count} minutes`),
  expires: (relative, time) => html`This payment link expires ${relative}, at ${time}.`,
  expiryInstant: (hourMinute, date) => `${hourMinute} UTC on ${date}`,
  notFound: ["Payment link not found", "This payment link is not valid. Ask the merchant for a new one."],
  finished: ["Payment finished", "The merchant's return address is not valid. Contact the merchant about your order."],
  invoiceCancelled: ["This invoice was cancelled", "It can no longer be paid. Contact the merchant if you expected to pay it."],
  expired: ["This payment link has expired", "Start the payment again from the merchant's site."],
  merchantUnavailable: ["Payment unavailable", "This merchant cannot accept payments right now."],
  tooLarge: ["Request too large", "The form sent was too large."],
  notUnderstood: ["Request not understood", "The form could not be read."],
  chooseMethod: ["Choose a payment method", "That payment method is not available for this payment."],
  methodUnavailable: ["Payment method unavailable", "This payment method is unavailable right now. Choose another."],
  processing: ["Payment processing", "The payment is being processed. You may close this page."],
  beingChecked: ["Payment being checked", "The payment needs a check before it completes. The merchant will be told the outcome."],
  notConfirmed: ["Payment not confirmed", "The payment response could not be verified."],
  paidInFrame: ["Payment complete", "Thank you. The merchant's page takes it from here."],
  endedInFrame: ["Payment not completed", "No money was taken. The merchant's page takes it from here."]
}

const fr: Messages = {
  testMode: "Mode test : paiement sandbox, aucun argent réel n'est débité.",
  pay: (merchant) => `Payer ${merchant}`,
  chooseHowToPay: "Choisissez votre moyen de paiement",
  noMethod: "Aucun moyen de paiement n'est disponible pour ce paiement.",
  cancelAndReturn: (merchant) => `Annuler et revenir chez ${merchant}`,
  payWith: (gateway) => `Payer avec ${gateway}`,
  chooseAnother: "Choisir un autre moyen de paiement",
  returnToMerchant: "Revenir chez le marchand",
  declined: (gateway) => `${gateway} a refusé le paiement et rien n'a été débité. Réessayez ou choisissez un autre moyen de paiement.`,
  lessThanAMinute: "dans moins d'une minute",
  minutes: (count) => (count === 1 ? "dans 1 minute" : `dans ${count} minutes`),
  expires: (relative, time) => html`Ce lien de paiement expire ${relative}, ${time}.`,
  expiryInstant: (hourMinute, date) => `le ${date} à ${hourMinute} UTC`,
  notFound: ["Lien de paiement introuvable", "Ce lien de paiement n'est pas valide. Demandez-en un nouveau au marchand."],
  finished: ["Paiement terminé", "L'adresse de retour du marchand n'est pas valide. Contactez le marchand au sujet de votre commande."],
  invoiceCancelled: ["Cette facture a été annulée", "Elle ne peut plus être payée. Contactez le marchand si vous pensiez devoir la régler."],
  expired: ["Ce lien de paiement a expiré", "Recommencez le paiement depuis le site du marchand."],
  merchantUnavailable: ["Paiement indisponible", "Ce marchand ne peut pas accepter de paiement pour le moment."],
  tooLarge: ["Requête trop volumineuse", "Le formulaire envoyé était trop volumineux."],
  notUnderstood: ["Requête incomprise", "Le formulaire n'a pas pu être lu."],
  chooseMethod: ["Choisissez un moyen de paiement", "Ce moyen de paiement n'est pas proposé pour ce paiement."],
  methodUnavailable: ["Moyen de paiement indisponible", "Ce moyen de paiement est indisponible pour le moment. Choisissez-en un autre."],
  processing: ["Paiement en cours", "Le paiement est en cours de traitement. Vous pouvez fermer cette page."],
  beingChecked: ["Paiement en vérification", "Le paiement doit être vérifié avant d'aboutir. Le marchand sera informé du résultat."],
  notConfirmed: ["Paiement non confirmé", "La réponse du paiement n'a pas pu être vérifiée."],
  paidInFrame: ["Paiement effectué", "Merci. La page du marchand prend le relais."],
  endedInFrame: ["Paiement non effectué", "Aucun montant n'a été prélevé. La page du marchand prend le relais."]
}

const ar: Messages = {
  testMode: "وضع الاختبار: دفعة تجريبية، لا تنتقل أي أموال حقيقية.",
  pay: (merchant) => `الدفع إلى ${merchant}`,
  chooseHowToPay: "اختر طريقة الدفع",
  noMethod: "لا تتوفر أي طريقة دفع لهذه الدفعة.",
  cancelAndReturn: (merchant) => `إلغاء والعودة إلى ${merchant}`,
  payWith: (gateway) => `الدفع باستخدام ${gateway}`,
  chooseAnother: "اختر طريقة دفع أخرى",
  returnToMerchant: "العودة إلى التاجر",
  declined: (gateway) => `رفض ${gateway} الدفعة ولم يُخصم أي مبلغ. حاول مرة أخرى أو اختر طريقة دفع أخرى.`,
  lessThanAMinute: "خلال أقل من دقيقة",
  minutes: (count) => (count === 1 ? "خلال دقيقة واحدة" : `خلال ${count} دقيقة`),
  expires: (relative, time) => html`تنتهي صلاحية رابط الدفع هذا ${relative}، ${time}.`,
  expiryInstant: (hourMinute, date) => `في ${date} الساعة ${hourMinute} UTC`,
  notFound: ["رابط الدفع غير موجود", "رابط الدفع هذا غير صالح. اطلب رابطًا جديدًا من التاجر."],
  finished: ["انتهت عملية الدفع", "عنوان العودة الخاص بالتاجر غير صالح. تواصل مع التاجر بشأن طلبك."],
  invoiceCancelled: ["أُلغيت هذه الفاتورة", "لم يعد بالإمكان دفعها. تواصل مع التاجر إذا كنت تتوقع دفعها."],
  expired: ["انتهت صلاحية رابط الدفع هذا", "ابدأ عملية الدفع من جديد من موقع التاجر."],
  merchantUnavailable: ["الدفع غير متاح", "لا يستطيع هذا التاجر قبول المدفوعات حاليًا."],
  tooLarge: ["الطلب كبير جدًا", "النموذج المرسل كبير جدًا."],
  notUnderstood: ["تعذر فهم الطلب", "تعذرت قراءة النموذج."],
  chooseMethod: ["اختر طريقة دفع", "طريقة الدفع هذه غير متاحة لهذه الدفعة."],
  methodUnavailable: ["طريقة الدفع غير متاحة", "طريقة الدفع هذه غير متاحة حاليًا. اختر طريقة أخرى."],
  processing: ["جارٍ معالجة الدفع", "تتم معالجة الدفعة. يمكنك إغلاق هذه الصفحة."],
  beingChecked: ["الدفعة قيد التحقق", "تحتاج الدفعة إلى تحقق قبل اكتمالها. سيُبلَّغ التاجر بالنتيجة."],
  notConfirmed: ["لم يتم تأكيد الدفع", "تعذر التحقق من رد الدفع."],
  paidInFrame: ["تم الدفع", "شكرًا لك. تتولى صفحة التاجر المتابعة من هنا."],
  endedInFrame: ["لم يكتمل الدفع", "لم يُقتطع أي مبلغ. تتولى صفحة التاجر المتابعة من هنا."]
}

const catalogs: Readonly<Record<Locale, Messages>> = { en, fr, ar }

export type { Messages }

export const messagesFor = (locale: Locale): Messages => catalogs[locale]

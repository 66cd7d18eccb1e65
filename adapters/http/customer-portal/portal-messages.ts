import type { BillingCycle, InvoiceStatus } from "../../../core/subscriptions/subscription.js"
import type { Locale } from "../checkout/locale.js"

/**
 * Every sentence of the customer portal, per language (the checkout's languages, chosen the same
 * way: checkout/locale.ts). Each catalog is typed by this interface, so a sentence missing from one
 * language does not compile. Values are plain text; the pages escape them.
 */
export interface PortalMessages {
  readonly testMode: string
  readonly title: string
  readonly signedInAs: (email: string) => string
  readonly noSubscriptions: string
  readonly subscription: string
  readonly everyCycle: Readonly<Record<BillingCycle, string>>
  readonly status: string
  readonly statusActive: string
  readonly statusEnding: (date: string) => string
  readonly statusPaymentDue: string
  readonly statusAwaitingFirst: string
  readonly statusStartsOn: (date: string) => string
  readonly statusCancelled: string
  readonly currentPeriod: string
  readonly nextBilling: string
  readonly none: string
  readonly invoices: string
  readonly noInvoices: string
  readonly invoiceNumbered: (sequence: number) => string
  readonly invoiceStatus: Readonly<Record<InvoiceStatus | "unpaid", string>>
  readonly pay: string
  readonly payInvoice: (label: string) => string
  readonly cancelAtPeriodEnd: string
  readonly cancelExplained: (date: string) => string
  readonly returnTo: (merchant: string) => string
  readonly returnToMerchant: string
  readonly invoicePdf: string
  readonly receiptPdf: string
  readonly allSubscriptions: string
  readonly viewSubscription: string
  readonly paymentMethod: string
  /** The saved card: brand, last four digits, expiry as MM/YYYY. */
  readonly cardOnFile: (brand: string, last4: string, expiry: string) => string
  readonly updatePaymentMethod: string
  readonly notices: Readonly<Record<
    | "cancelled" | "nothingToPay" | "cannotCancel" | "cancellationOff" | "paymentUnavailable" | "methodAtNextPayment" | "methodClosed"
    | "methodUpdated" | "methodUnchanged" | "methodSetupClosed" | "methodUnavailable",
    string
  >>
  /** The setup-only page (a new method with nothing to pay): its heading and what it does. */
  readonly replaceMethod: string
  readonly replaceMethodExplained: string
  readonly linkUsed: readonly [title: string, message: string]
  readonly linkExpired: readonly [title: string, message: string]
  readonly linkUnknown: readonly [title: string, message: string]
  readonly sessionEnded: readonly [title: string, message: string]
  readonly notFound: readonly [title: string, message: string]
  readonly formExpired: readonly [title: string, message: string]
}

const en: PortalMessages = {
  testMode: "Test mode: sandbox billing, no real money moves.",
  title: "Your subscriptions",
  signedInAs: (email) => `Billing for ${email}`,
  noSubscriptions: "You have no subscriptions with this merchant.",
  subscription: "Subscription",
  everyCycle: { daily: "per day", weekly: "per week", monthly: "per month", half_yearly: "every 6 months", yearly: "per year" },
  status: "Status",
  statusActive: "Active",
  statusEnding: (date) => `Active, ends on ${date}`,
  statusPaymentDue: "Payment due",
  statusAwaitingFirst: "Awaiting first payment",
  statusStartsOn: (date) => `Starts on ${date}`,
  statusCancelled: "Cancelled",
  currentPeriod: "Current period",
  nextBilling: "Next billing",
  none: "None",
  invoices: "Invoices",
  noInvoices: "No invoices yet.",
  invoiceNumbered: (sequence) => `Invoice ${sequence}`,
  invoiceStatus: { pending: "Open", unpaid: "Unpaid", paid: "Paid", expired: "Expired", void: "Void" },
  pay: "Pay",
  payInvoice: (label) => `Pay ${label}`,
  cancelAtPeriodEnd: "Cancel at period end",
  cancelExplained: (date) => `You keep access until ${date}; nothing more is billed.`,
  returnTo: (merchant) => `Return to ${merchant}`,
  returnToMerchant: "Return to the merchant",
  invoicePdf: "Invoice (PDF)",
  receiptPdf: "Receipt (PDF)",
  allSubscriptions: "All subscriptions",
  viewSubscription: "Details",
  paymentMethod: "Payment method",
  cardOnFile: (brand, last4, expiry) => `${brand} ending in ${last4}, expires ${expiry}`,
  updatePaymentMethod: "Update payment method",
  notices: {
    cancelled: "Your subscription will end at the end of the current period.",
    nothingToPay: "There is nothing to pay on this subscription now.",
    cannotCancel: "This subscription can no longer be cancelled here.",
    cancellationOff: "Contact the merchant to cancel this subscription.",
    paymentUnavailable: "This invoice cannot be paid right now. Try again later or contact the merchant.",
    methodAtNextPayment: "There is nothing to pay now: you can change your card at your next payment, when the next invoice is issued.",
    methodClosed: "This subscription is cancelled: its payment method can no longer be changed.",
    methodUpdated: "Your payment method was updated. The next payments of this subscription use it.",
    methodUnchanged: "Your payment method was not changed.",
    methodSetupClosed: "That payment method update had already ended. Start it again from here if you still want to change the card.",
    methodUnavailable: "Your payment method cannot be changed right now. Try again later."
  },
  replaceMethod: "Replace your payment method",
  replaceMethodExplained: "Nothing is charged now: the method you give here is kept for this subscription's next payments.",
  linkUsed: ["This link was already used", "For your security, each billing link opens once. Ask the merchant for a new one."],
  linkExpired: ["This link has expired", "Billing links are valid for one hour. Ask the merchant for a new one."],
  linkUnknown: ["Link not found", "This billing link is not valid. Ask the merchant for a new one."],
  sessionEnded: ["Your session has ended", "Open your billing page again from the merchant's site."],
  notFound: ["Not found", "There is no such subscription or invoice in your account."],
  formExpired: ["Please try again", "The form was out of date. Go back to your subscriptions and try again."]
}

const fr: PortalMessages = {
  testMode: "Mode test : facturation sandbox, aucun argent réel n'est débité.",
  title: "Vos abonnements",
  signedInAs: (email) => `Facturation de ${email}`,
  noSubscriptions: "Vous n'avez aucun abonnement chez ce marchand.",
  subscription: "Abonnement",
  everyCycle: { daily: "par jour", weekly: "par semaine", monthly: "par mois", half_yearly: "tous les 6 mois", yearly: "par an" },
  status: "Statut",
  statusActive: "Actif",
  statusEnding: (date) => `Actif, se termine le ${date}`,
  statusPaymentDue: "Paiement en attente",
  statusAwaitingFirst: "En attente du premier paiement",
  statusStartsOn: (date) => `Commence le ${date}`,
  statusCancelled: "Résilié",
  currentPeriod: "Période en cours",
  nextBilling: "Prochaine facturation",
  none: "Aucune",
  invoices: "Factures",
  noInvoices: "Aucune facture pour l'instant.",
  invoiceNumbered: (sequence) => `Facture ${sequence}`,
  invoiceStatus: { pending: "À payer", unpaid: "Impayée", paid: "Payée", expired: "Expirée", void: "Annulée" },
  pay: "Payer",
  payInvoice: (label) => `Payer ${label}`,
  cancelAtPeriodEnd: "Résilier à la fin de la période",
  cancelExplained: (date) => `Vous gardez l'accès jusqu'au ${date} ; rien d'autre n'est facturé.`,
  returnTo: (merchant) => `Revenir chez ${merchant}`,
  returnToMerchant: "Revenir chez le marchand",
  invoicePdf: "Facture (PDF)",
  receiptPdf: "Reçu (PDF)",
  allSubscriptions: "Tous les abonnements",
  viewSubscription: "Détails",
  paymentMethod: "Moyen de paiement",
  cardOnFile: (brand, last4, expiry) => `${brand} se terminant par ${last4}, expire ${expiry}`,
  updatePaymentMethod: "Modifier le moyen de paiement",
  notices: {
    cancelled: "Votre abonnement prendra fin à la fin de la période en cours.",
    nothingToPay: "Il n'y a rien à payer sur cet abonnement pour le moment.",
    cannotCancel: "Cet abonnement ne peut plus être résilié ici.",
    cancellationOff: "Contactez le marchand pour résilier cet abonnement.",
    paymentUnavailable: "Cette facture ne peut pas être payée pour le moment. Réessayez plus tard ou contactez le marchand.",
    methodAtNextPayment: "Il n'y a rien à payer pour le moment : vous pourrez changer de carte lors de votre prochain paiement, à l'émission de la prochaine facture.",
    methodClosed: "Cet abonnement est résilié : son moyen de paiement ne peut plus être modifié.",
    methodUpdated: "Votre moyen de paiement a été mis à jour. Les prochains paiements de cet abonnement l'utiliseront.",
    methodUnchanged: "Votre moyen de paiement n'a pas été modifié.",
    methodSetupClosed: "Cette mise à jour du moyen de paiement était déjà terminée. Recommencez-la d'ici si vous souhaitez toujours changer de carte.",
    methodUnavailable: "Votre moyen de paiement ne peut pas être modifié pour le moment. Réessayez plus tard."
  },
  replaceMethod: "Remplacer votre moyen de paiement",
  replaceMethodExplained: "Rien n'est débité maintenant : le moyen indiqué ici est conservé pour les prochains paiements de cet abonnement.",
  linkUsed: ["Ce lien a déjà été utilisé", "Pour votre sécurité, chaque lien de facturation ne s'ouvre qu'une fois. Demandez-en un nouveau au marchand."],
  linkExpired: ["Ce lien a expiré", "Les liens de facturation sont valables une heure. Demandez-en un nouveau au marchand."],
  linkUnknown: ["Lien introuvable", "Ce lien de facturation n'est pas valide. Demandez-en un nouveau au marchand."],
  sessionEnded: ["Votre session a pris fin", "Rouvrez votre page de facturation depuis le site du marchand."],
  notFound: ["Introuvable", "Aucun abonnement ni aucune facture de ce type dans votre compte."],
  formExpired: ["Veuillez réessayer", "Le formulaire n'était plus à jour. Revenez à vos abonnements et réessayez."]
}

const ar: PortalMessages = {
  testMode: "وضع الاختبار: فوترة تجريبية، لا تنتقل أي أموال حقيقية.",
  title: "اشتراكاتك",
  signedInAs: (email) => `الفوترة الخاصة بـ ${email}`,
  noSubscriptions: "ليس لديك أي اشتراك لدى هذا التاجر.",
  subscription: "اشتراك",
  everyCycle: { daily: "يوميًا", weekly: "أسبوعيًا", monthly: "شهريًا", half_yearly: "كل 6 أشهر", yearly: "سنويًا" },
  status: "الحالة",
  statusActive: "نشط",
  statusEnding: (date) => `نشط، ينتهي في ${date}`,
  statusPaymentDue: "الدفع مستحق",
  statusAwaitingFirst: "بانتظار الدفعة الأولى",
  statusStartsOn: (date) => `يبدأ في ${date}`,
  statusCancelled: "ملغى",
  currentPeriod: "الفترة الحالية",
  nextBilling: "الفوترة التالية",
  none: "لا يوجد",
  invoices: "الفواتير",
  noInvoices: "لا توجد فواتير بعد.",
  invoiceNumbered: (sequence) => `الفاتورة ${sequence}`,
  invoiceStatus: { pending: "مفتوحة", unpaid: "غير مدفوعة", paid: "مدفوعة", expired: "منتهية", void: "ملغاة" },
  pay: "ادفع",
  payInvoice: (label) => `ادفع ${label}`,
  cancelAtPeriodEnd: "الإلغاء في نهاية الفترة",
  cancelExplained: (date) => `يبقى وصولك حتى ${date}؛ ولن تُفوتر أي مبالغ أخرى.`,
  returnTo: (merchant) => `العودة إلى ${merchant}`,
  returnToMerchant: "العودة إلى التاجر",
  invoicePdf: "الفاتورة (PDF)",
  receiptPdf: "الإيصال (PDF)",
  allSubscriptions: "كل الاشتراكات",
  viewSubscription: "التفاصيل",
  paymentMethod: "وسيلة الدفع",
  cardOnFile: (brand, last4, expiry) => `${brand} تنتهي بـ ${last4}، تنتهي صلاحيتها ${expiry}`,
  updatePaymentMethod: "تحديث وسيلة الدفع",
  notices: {
    cancelled: "سينتهي اشتراكك في نهاية الفترة الحالية.",
    nothingToPay: "لا يوجد ما يُدفع على هذا الاشتراك الآن.",
    cannotCancel: "لم يعد بالإمكان إلغاء هذا الاشتراك من هنا.",
    cancellationOff: "تواصل مع التاجر لإلغاء هذا الاشتراك.",
    paymentUnavailable: "لا يمكن دفع هذه الفاتورة الآن. حاول لاحقًا أو تواصل مع التاجر.",
    methodAtNextPayment: "لا يوجد ما يُدفع الآن: يمكنك تغيير بطاقتك عند دفعتك التالية، حين تصدر الفاتورة التالية.",
    methodClosed: "هذا الاشتراك ملغى: لم يعد بالإمكان تغيير وسيلة الدفع الخاصة به.",
    methodUpdated: "تم تحديث وسيلة الدفع الخاصة بك. ستُستخدم في الدفعات القادمة لهذا الاشتراك.",
    methodUnchanged: "لم يتم تغيير وسيلة الدفع الخاصة بك.",
    methodSetupClosed: "انتهى تحديث وسيلة الدفع هذا بالفعل. ابدأه من جديد من هنا إذا كنت لا تزال تريد تغيير البطاقة.",
    methodUnavailable: "لا يمكن تغيير وسيلة الدفع الخاصة بك الآن. حاول مرة أخرى لاحقًا."
  },
  replaceMethod: "استبدال وسيلة الدفع",
  replaceMethodExplained: "لن يُخصم أي مبلغ الآن: تُحفظ الوسيلة التي تقدمها هنا للدفعات القادمة لهذا الاشتراك.",
  linkUsed: ["سبق استخدام هذا الرابط", "حفاظًا على أمانك، يُفتح كل رابط فوترة مرة واحدة. اطلب رابطًا جديدًا من التاجر."],
  linkExpired: ["انتهت صلاحية هذا الرابط", "روابط الفوترة صالحة لمدة ساعة. اطلب رابطًا جديدًا من التاجر."],
  linkUnknown: ["الرابط غير موجود", "رابط الفوترة هذا غير صالح. اطلب رابطًا جديدًا من التاجر."],
  sessionEnded: ["انتهت جلستك", "افتح صفحة الفوترة مجددًا من موقع التاجر."],
  notFound: ["غير موجود", "لا يوجد اشتراك أو فاتورة كهذه في حسابك."],
  formExpired: ["يرجى المحاولة مجددًا", "لم يعد النموذج محدّثًا. عد إلى اشتراكاتك وحاول مرة أخرى."]
}

const catalogs: Readonly<Record<Locale, PortalMessages>> = { en, fr, ar }

export const portalMessagesFor = (locale: Locale): PortalMessages => catalogs[locale]

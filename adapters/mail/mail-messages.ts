import type { Locale } from "../http/checkout/locale.js"

/**
 * Every sentence the mails say, per language (the checkout's languages). Each catalog is typed by
 * the English one, so a sentence missing from one language does not compile. Values are plain text:
 * the HTML part escapes them (mail-layout.ts). `amount`, dates and names arrive already formatted.
 */
export interface MailMessages {
  readonly greeting: string
  /** What a subscription without a description is called. */
  readonly yourSubscription: string
  readonly sandboxNote: string
  readonly footer: (merchant: string) => string
  readonly invoiceIssued: {
    readonly subject: (merchant: string, reference: string) => string
    readonly body: (merchant: string, amount: string, description: string, period: string) => string
    /** Until when the invoice's checkout link works (a renewal makes a new one). */
    readonly due: (date: string) => string
    readonly pay: string
  }
  readonly paymentReceipt: {
    readonly subject: (merchant: string, reference: string) => string
    readonly body: (merchant: string, amount: string, description: string, date: string) => string
    readonly transaction: (trxId: string) => string
  }
  readonly dunningReminder: {
    readonly subject: (merchant: string, reference: string) => string
    readonly body: (merchant: string, amount: string, description: string, reminder: number) => string
    readonly cancels: (date: string) => string
    readonly pay: string
  }
  readonly trialEnding: {
    readonly subject: (merchant: string) => string
    readonly body: (merchant: string, description: string, date: string, amount: string) => string
  }
  readonly paymentMethodFailed: {
    readonly subject: (merchant: string, reference: string) => string
    readonly body: (merchant: string, amount: string, description: string) => string
    readonly reason: (reason: string) => string
    readonly retry: (date: string) => string
    readonly noRetry: string
    readonly pay: string
  }
  readonly setPassword: {
    readonly subject: (merchant: string) => string
    readonly invited: (merchant: string, email: string) => string
    readonly reset: (merchant: string, email: string) => string
    readonly expires: (date: string) => string
    readonly ignore: string
    readonly action: string
  }
  readonly signIn: {
    readonly subject: (merchant: string) => string
    readonly body: (merchant: string, email: string, date: string, address: string) => string
    readonly notYou: string
    readonly action: string
  }
}

const en: MailMessages = {
  greeting: "Hello,",
  yourSubscription: "your subscription",
  sandboxNote: "Test mode: this mail is about a sandbox object; no real money moves.",
  footer: (merchant) => `You receive this mail because of your account with ${merchant}.`,
  invoiceIssued: {
    subject: (merchant, reference) => `Your invoice ${reference} from ${merchant}`,
    body: (merchant, amount, description, period) => `${merchant} has issued an invoice of ${amount} for ${description} (${period}).`,
    due: (date) => `Its payment link works until ${date}.`,
    pay: "Pay the invoice"
  },
  paymentReceipt: {
    subject: (merchant, reference) => `Receipt for ${reference} from ${merchant}`,
    body: (merchant, amount, description, date) => `Thank you: ${merchant} received your payment of ${amount} for ${description} on ${date}.`,
    transaction: (trxId) => `Transaction: ${trxId}`
  },
  dunningReminder: {
    subject: (merchant, reference) => `Reminder: invoice ${reference} from ${merchant} is unpaid`,
    body: (merchant, amount, description, reminder) =>
      `Your invoice of ${amount} from ${merchant} for ${description} is still unpaid (reminder ${reminder}).`,
    cancels: (date) => `If it stays unpaid, the subscription will be cancelled on ${date}.`,
    pay: "Pay the invoice"
  },
  trialEnding: {
    subject: (merchant) => `Your trial with ${merchant} is ending`,
    body: (merchant, description, date, amount) =>
      `Your trial of ${description} with ${merchant} ends on ${date}. After that you will be billed ${amount}.`
  },
  paymentMethodFailed: {
    subject: (merchant, reference) => `Payment for invoice ${reference} from ${merchant} failed`,
    body: (merchant, amount, description) => `We could not charge your saved payment method ${amount} for ${description} from ${merchant}.`,
    reason: (reason) => `Reason: ${reason}`,
    retry: (date) => `We will try again on ${date}.`,
    noRetry: "We will not try again automatically.",
    pay: "Pay the invoice now"
  },
  setPassword: {
    subject: (merchant) => `Set your password for the ${merchant} dashboard`,
    invited: (merchant, email) => `You have been invited to the ${merchant} dashboard as ${email}.`,
    reset: (merchant, email) => `A new link to set the password of ${email} on the ${merchant} dashboard was requested.`,
    expires: (date) => `The link can be used once, until ${date}.`,
    ignore: "If you did not expect this mail, you can ignore it.",
    action: "Set your password"
  },
  signIn: {
    subject: (merchant) => `New sign-in to the ${merchant} dashboard`,
    body: (merchant, email, date, address) => `${email} signed in to the ${merchant} dashboard on ${date} from ${address}.`,
    notYou: "If this was not you, set a new password at once and tell your administrator.",
    action: "Open the dashboard"
  }
}

const fr: MailMessages = {
  greeting: "Bonjour,",
  yourSubscription: "votre abonnement",
  sandboxNote: "Mode test : ce courriel concerne un objet de test ; aucun argent réel ne circule.",
  footer: (merchant) => `Vous recevez ce courriel en raison de votre compte chez ${merchant}.`,
  invoiceIssued: {
    subject: (merchant, reference) => `Votre facture ${reference} de ${merchant}`,
    body: (merchant, amount, description, period) => `${merchant} a émis une facture de ${amount} pour ${description} (${period}).`,
    due: (date) => `Son lien de paiement est valable jusqu’au ${date}.`,
    pay: "Payer la facture"
  },
  paymentReceipt: {
    subject: (merchant, reference) => `Reçu pour ${reference} de ${merchant}`,
    body: (merchant, amount, description, date) => `Merci : ${merchant} a reçu votre paiement de ${amount} pour ${description} le ${date}.`,
    transaction: (trxId) => `Transaction : ${trxId}`
  },
  dunningReminder: {
    subject: (merchant, reference) => `Rappel : la facture ${reference} de ${merchant} est impayée`,
    body: (merchant, amount, description, reminder) =>
      `Votre facture de ${amount} de ${merchant} pour ${description} n’est toujours pas réglée (rappel ${reminder}).`,
    cancels: (date) => `Sans paiement, l’abonnement sera résilié le ${date}.`,
    pay: "Payer la facture"
  },
  trialEnding: {
    subject: (merchant) => `Votre essai chez ${merchant} se termine`,
    body: (merchant, description, date, amount) =>
      `Votre essai de ${description} chez ${merchant} se termine le ${date}. Ensuite, ${amount} vous sera facturé.`
  },
  paymentMethodFailed: {
    subject: (merchant, reference) => `Le paiement de la facture ${reference} de ${merchant} a échoué`,
    body: (merchant, amount, description) =>
      `Nous n’avons pas pu débiter ${amount} sur votre moyen de paiement enregistré pour ${description} de ${merchant}.`,
    reason: (reason) => `Motif : ${reason}`,
    retry: (date) => `Nous réessaierons le ${date}.`,
    noRetry: "Nous ne réessaierons pas automatiquement.",
    pay: "Payer la facture maintenant"
  },
  setPassword: {
    subject: (merchant) => `Définissez votre mot de passe pour le tableau de bord ${merchant}`,
    invited: (merchant, email) => `Vous êtes invité au tableau de bord ${merchant} en tant que ${email}.`,
    reset: (merchant, email) => `Un nouveau lien pour définir le mot de passe de ${email} sur le tableau de bord ${merchant} a été demandé.`,
    expires: (date) => `Le lien est utilisable une fois, jusqu’au ${date}.`,
    ignore: "Si vous n’attendiez pas ce courriel, ignorez-le.",
    action: "Définir votre mot de passe"
  },
  signIn: {
    subject: (merchant) => `Nouvelle connexion au tableau de bord ${merchant}`,
    body: (merchant, email, date, address) => `${email} s’est connecté au tableau de bord ${merchant} le ${date} depuis ${address}.`,
    notYou: "Si ce n’était pas vous, changez tout de suite votre mot de passe et prévenez votre administrateur.",
    action: "Ouvrir le tableau de bord"
  }
}

const ar: MailMessages = {
  greeting: "مرحبًا،",
  yourSubscription: "اشتراكك",
  sandboxNote: "وضع الاختبار: هذه الرسالة تخص عنصرًا تجريبيًا؛ لا تنتقل أي أموال حقيقية.",
  footer: (merchant) => `تصلك هذه الرسالة بسبب حسابك لدى ${merchant}.`,
  invoiceIssued: {
    subject: (merchant, reference) => `فاتورتك ${reference} من ${merchant}`,
    body: (merchant, amount, description, period) => `أصدر ${merchant} فاتورة بمبلغ ${amount} مقابل ${description} (${period}).`,
    due: (date) => `رابط الدفع الخاص بها صالح حتى ${date}.`,
    pay: "ادفع الفاتورة"
  },
  paymentReceipt: {
    subject: (merchant, reference) => `إيصال ${reference} من ${merchant}`,
    body: (merchant, amount, description, date) => `شكرًا لك: استلم ${merchant} دفعتك بمبلغ ${amount} مقابل ${description} في ${date}.`,
    transaction: (trxId) => `المعاملة: ${trxId}`
  },
  dunningReminder: {
    subject: (merchant, reference) => `تذكير: الفاتورة ${reference} من ${merchant} غير مدفوعة`,
    body: (merchant, amount, description, reminder) =>
      `فاتورتك بمبلغ ${amount} من ${merchant} مقابل ${description} ما زالت غير مدفوعة (التذكير ${reminder}).`,
    cancels: (date) => `إذا بقيت غير مدفوعة فسيُلغى الاشتراك في ${date}.`,
    pay: "ادفع الفاتورة"
  },
  trialEnding: {
    subject: (merchant) => `فترتك التجريبية لدى ${merchant} توشك على الانتهاء`,
    body: (merchant, description, date, amount) =>
      `تنتهي فترتك التجريبية لـ ${description} لدى ${merchant} في ${date}. بعدها ستُحاسب بمبلغ ${amount}.`
  },
  paymentMethodFailed: {
    subject: (merchant, reference) => `فشل دفع الفاتورة ${reference} من ${merchant}`,
    body: (merchant, amount, description) => `لم نتمكن من خصم ${amount} من وسيلة الدفع المحفوظة مقابل ${description} من ${merchant}.`,
    reason: (reason) => `السبب: ${reason}`,
    retry: (date) => `سنحاول مرة أخرى في ${date}.`,
    noRetry: "لن نحاول مرة أخرى تلقائيًا.",
    pay: "ادفع الفاتورة الآن"
  },
  setPassword: {
    subject: (merchant) => `عيّن كلمة المرور للوحة تحكم ${merchant}`,
    invited: (merchant, email) => `تمت دعوتك إلى لوحة تحكم ${merchant} باسم ${email}.`,
    reset: (merchant, email) => `طُلب رابط جديد لتعيين كلمة مرور ${email} في لوحة تحكم ${merchant}.`,
    expires: (date) => `يمكن استخدام الرابط مرة واحدة حتى ${date}.`,
    ignore: "إذا لم تكن تتوقع هذه الرسالة فتجاهلها.",
    action: "عيّن كلمة المرور"
  },
  signIn: {
    subject: (merchant) => `تسجيل دخول جديد إلى لوحة تحكم ${merchant}`,
    body: (merchant, email, date, address) => `سجّل ${email} الدخول إلى لوحة تحكم ${merchant} في ${date} من ${address}.`,
    notYou: "إذا لم تكن أنت، فعيّن كلمة مرور جديدة فورًا وأبلغ المسؤول.",
    action: "افتح لوحة التحكم"
  }
}

const catalogs: Readonly<Record<Locale, MailMessages>> = { en, fr, ar }

export const mailMessagesFor = (locale: Locale): MailMessages => catalogs[locale]

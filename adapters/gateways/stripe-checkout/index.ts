export { makeStripeCheckoutPlugin, STRIPE_CHECKOUT_PLUGIN_ID } from "./stripe-checkout-plugin.js"
export { parseStripeCheckoutConfig, type StripeCheckoutConfig } from "./stripe-checkout-config.js"

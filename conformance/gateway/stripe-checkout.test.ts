import { stripeCheckoutConformance } from "./stripe-driver.js"

stripeCheckoutConformance()

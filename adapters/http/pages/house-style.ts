// The one look of every page a person sees (hosted checkout and the merchant dashboard): colours,
// type, cards, banners and buttons. Checkout inlines it (its pages load nothing); the dashboard serves
// it as a stylesheet under its strict Content-Security-Policy, with its own layout rules after it.

// Every control is a real button of one family: 48 px tall at least (a thumb's tap target), the
// primary action filled, the others outlined, payment methods outlined in the accent colour with a
// chevron. Long merchant text may break anywhere; identifiers (.trx) only where the markup allows, and
// an amount only between its number and its code (its size follows the screen so ten digits fit a phone).
export const HOUSE_STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330;line-height:1.4;overflow-wrap:anywhere}
main{max-width:28rem;margin:0 auto;padding:1.25rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.banner{background:#fff4cc;color:#5c4400;border:1px solid #f0d37a;border-radius:8px;padding:.6rem .8rem;margin-bottom:1rem;font-weight:600}
.problem{background:#fdecec;color:#7f1d1d;border:1px solid #f3a5a5;border-radius:8px;padding:.6rem .8rem;margin-bottom:1rem}
.merchant{color:#5b6475;margin:0}
.amount{font-size:clamp(1.4rem,7vw,2rem);font-weight:700;margin:.25rem 0 .5rem;overflow-wrap:normal}
.muted{color:#5b6475}
.expiry{color:#5b6475;font-size:.9rem;margin:.5rem 0 0}
h1{font-size:1.25rem;margin:1.25rem 0 .75rem}
h2{font-size:1rem;margin:.75rem 0}
.trx{display:inline-block;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8rem;overflow-wrap:normal;word-break:keep-all}
ul.methods{list-style:none;padding:0;margin:0 0 1rem}
ul.methods li{margin:.5rem 0}
form{margin:0}
button,.button{display:block;width:100%;min-height:48px;box-sizing:border-box;margin:.5rem 0;padding:.75rem 1rem;border-radius:10px;border:2px solid #c9ced8;background:#fff;color:#1d2330;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
button:focus-visible,.button:focus-visible,a:focus-visible{outline:3px solid #93b4f5;outline-offset:2px}
button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
button.secondary{background:#fff;border-color:#c9ced8;color:#1d2330}
button.method{display:flex;justify-content:space-between;align-items:center;border-color:#1d4ed8;color:#1d4ed8;text-align:start}
button.method::after{content:"\\203A";font-size:1.5rem;line-height:1}
[dir=rtl] button.method::after{content:"\\2039"}
button.link,a.back{display:block;min-height:48px;box-sizing:border-box;padding:.75rem 1rem;border:none;background:none;color:#5b6475;font-weight:400;text-align:center;text-decoration:underline}
`


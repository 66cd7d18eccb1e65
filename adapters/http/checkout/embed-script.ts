/** The element of an embedded checkout's last page that carries what the parent page is told. */
export const CHECKOUT_ENDED_ID = "checkout-ended"

/**
 * The kit's one checkout script, served as a file (checkout pages allow no inline script): on the
 * last page of a framed checkout it posts `{ type, status, trx_id }` to the parent, once per origin
 * the merchant listed, so the browser delivers it only if the parent is one of them (never to "*").
 * The parent must still verify the payment: anyone can post a message.
 */
export const CHECKOUT_EMBED_SCRIPT = `(function () {
  "use strict";
  var ended = document.getElementById(${JSON.stringify(CHECKOUT_ENDED_ID)});
  if (ended === null || window.parent === window) return;
  var message = { type: "merchant-payments.checkout", status: ended.getAttribute("data-status"), trx_id: ended.getAttribute("data-trx-id") };
  (ended.getAttribute("data-parent-origins") || "").split(" ").forEach(function (origin) {
    if (origin !== "") window.parent.postMessage(message, origin);
  });
})();
`

// Types for the TypeScript tests that play Acme Pay's side; the plugin itself stays plain JavaScript.
export interface AcmeReturn {
  readonly trx_id: string
  readonly status: string
  readonly amount: string
  readonly currency: string
}

export declare const signReturn: (secret: string, facts: AcmeReturn) => { trx_id: string; status: string; signature: string }

export declare const signNotification: (
  secret: string,
  body: unknown
) => { rawBody: Buffer; headers: { "content-type": string; "x-acme-signature": string } }

export declare const readPayPageQuery: (redirect: string) => Record<string, string>

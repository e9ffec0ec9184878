/** The upstream session's cancel key, from BackendKeyData. */
export interface BackendKey {
  readonly processId: number;
  readonly secretKey: number;
}

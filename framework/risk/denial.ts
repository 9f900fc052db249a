/** Why a check refused an intent: the check's name and a reason naming the limit and the value. */
export interface Denial {
  /** Stable check name, carried into `DeniedReport.check` (`balance`, `price-band`, ...). */
  readonly check: string;
  readonly reason: string;
}

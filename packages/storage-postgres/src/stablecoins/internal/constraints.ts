/** Names of the constraints whose violations the repositories turn into domain errors; the migrations create them. */
export const stablecoinsNetworkTokenKey = "stablecoins_network_token_key"

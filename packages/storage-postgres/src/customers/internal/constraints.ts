/** Names of the constraints whose violations the repositories turn into domain errors; the migrations create them. */
export const customersPlatformCustomerIdKey = "customers_platform_customer_id_key"
/** One live customer per UMA address and platform (migration `0041_customer_uma_address_unique`). */
export const customersUmaAddressKey = "customers_uma_address_key"

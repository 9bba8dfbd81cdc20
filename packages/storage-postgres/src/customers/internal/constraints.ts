/** Names of the constraints whose violations the repositories turn into domain errors; the migrations create them. */
export const customersPlatformCustomerIdKey = "customers_platform_customer_id_key"

#if OpenAPI
    /// The operation ID of the OpenAPI operation a request was sent for, set by
    /// ``NetworkClientTransport`` so that actions can tell generated calls apart; `nil` for
    /// every other send. Needs the `OpenAPI` trait.
    ///
    /// ```swift
    /// let operation = request.customProperties[OpenAPIOperationID.self]  // "getUser"
    /// ```
    public enum OpenAPIOperationID: CustomPropertyKey {
        /// No operation.
        public static let defaultValue: String? = nil
    }
#endif

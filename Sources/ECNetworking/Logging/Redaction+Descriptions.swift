extension Redaction {
    /// The names descriptions redact, and their prepared redaction.
    private struct DescriptionNames {
        var names: SensitiveData
        var redaction: Redaction
    }

    /// Grows as networks are created; guarded by its lock because any thread may describe a value
    /// while another creates a network.
    private static let descriptionNames = LockedState(
        DescriptionNames(names: .default, redaction: .default))

    /// What descriptions, which have no configuration at hand, redact: ``SensitiveData/default``
    /// plus every name added to the ``NetworkConfiguration/sensitiveData`` of a network created in
    /// this process. It only grows, so a name one network drops from its list stays hidden here.
    package static var forDescriptions: Redaction {
        descriptionNames.withLock { $0.redaction }
    }

    /// Adds the names of `sensitiveData` to those descriptions redact.
    static func registerForDescriptions(_ sensitiveData: SensitiveData) {
        descriptionNames.withLock { state in
            let merged = SensitiveData(
                headers: state.names.headers.union(sensitiveData.headers),
                queryParameters: state.names.queryParameters.union(sensitiveData.queryParameters),
                bodyFields: state.names.bodyFields.union(sensitiveData.bodyFields))
            guard merged != state.names else { return }
            state = DescriptionNames(names: merged, redaction: Redaction(merged))
        }
    }
}

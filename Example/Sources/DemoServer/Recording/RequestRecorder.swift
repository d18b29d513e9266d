/// What a ``DemoServer`` received, for tests to assert on.
///
/// An actor because request handlers on many event loop threads update it concurrently.
public actor RequestRecorder {
    /// Every request received, in arrival order.
    public private(set) var requests: [RecordedRequest] = []
    /// The number of `POST /login` requests, successful or not.
    public private(set) var loginCount = 0
    /// The number of requests whose handler is running right now.
    public private(set) var requestsInFlight = 0
    /// The highest value ``requestsInFlight`` has reached.
    public private(set) var maximumRequestsInFlight = 0
    /// The number of `GET /slow` requests whose client disconnected before the reply was sent.
    ///
    /// Requests cut short by ``DemoServer/stop()`` are not counted.
    public private(set) var cancelledSlowRequests = 0
    /// The paths of the streamed responses (`/stream/tokens`, `/events`) whose body ended before
    /// its last piece because the client went away, in the order the server noticed; a stream cut
    /// short by ``DemoServer/stop()`` is recorded too.
    public private(set) var abandonedStreams: [String] = []
    /// The number of `/files/large` bodies being sent right now, from their first byte to their
    /// end, a dropped or abandoned one included.
    public private(set) var downloadBodiesOpen = 0
    /// The highest value ``downloadBodiesOpen`` has reached.
    public private(set) var maximumDownloadBodiesOpen = 0
    /// The number of `GET /catalog` requests answered, with the catalog or with `304 Not Modified`.
    public private(set) var catalogHits = 0
    /// How many of ``catalogHits`` were answered `304 Not Modified`, without sending the catalog again.
    public private(set) var catalogNotModifiedCount = 0

    init() {}

    /// The recorded requests whose path is `path`.
    public func requests(path: String) -> [RecordedRequest] {
        requests.filter { $0.path == path }
    }

    func record(_ request: RecordedRequest) {
        requests.append(request)
    }

    func recordLogin() {
        loginCount += 1
    }

    func requestStarted() {
        requestsInFlight += 1
        maximumRequestsInFlight = max(maximumRequestsInFlight, requestsInFlight)
    }

    func requestFinished() {
        requestsInFlight -= 1
    }

    func downloadBodyStarted() {
        downloadBodiesOpen += 1
        maximumDownloadBodiesOpen = max(maximumDownloadBodiesOpen, downloadBodiesOpen)
    }

    func downloadBodyEnded() {
        downloadBodiesOpen -= 1
    }

    func recordCancelledSlowRequest() {
        cancelledSlowRequests += 1
    }

    func recordAbandonedStream(path: String) {
        abandonedStreams.append(path)
    }

    func recordCatalogHit(notModified: Bool) {
        catalogHits += 1
        if notModified {
            catalogNotModifiedCount += 1
        }
    }
}

extension ControlClient {
    /// `camrec ctl`'s exit status for a recorder's `reply`: 0 when the recorder did it,
    /// 1 when it refused (the reply says why).
    public static func status(ofReply reply: String) -> ExitStatus {
        reply.hasPrefix("{\"ok\":true") ? .success : .failure
    }
}

import GStreamer

extension Sample {
    /// The frame's `height` rows of `width` RGB pixels, packed (without the rows' padding);
    /// nil when the sample is not such a frame.
    func packedRGB(width: Int, height: Int) -> [UInt8]? {
        guard let stride = caps?.videoLayout?.strides.first else { return nil }
        let rowBytes = width * 3
        return withBytes { bytes -> [UInt8]? in
            guard stride >= rowBytes, height > 0, bytes.count >= stride * (height - 1) + rowBytes else { return nil }
            var rows = [UInt8]()
            rows.reserveCapacity(rowBytes * height)
            for row in 0..<height { rows.append(contentsOf: bytes[(row * stride)..<(row * stride + rowBytes)]) }
            return rows
        } ?? nil
    }
}

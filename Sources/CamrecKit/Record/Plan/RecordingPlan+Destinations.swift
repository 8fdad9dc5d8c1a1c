import FoundationEssentials

extension RecordingPlan {
    /// Checks, once for every layout, that each file the run will write can be created:
    /// each movie (or a series' first name: a series never replaces a file), the stills'
    /// folders, and a `--clips` pattern's folder, found now rather than at the first
    /// trigger. Creates nothing.
    public func checkDestinations(now: Date = Date()) throws(CamrecError) {
        for outputs in movies {
            if let naming = outputs.segments?.naming {
                try OutputFile.checkDestination(naming.path(counter: 1, date: now), overwrite: true)
            } else if !standby {
                // Standby writes no movie: its name only names the clips.
                try OutputFile.checkDestination(outputs.movie, overwrite: overwrite)
            }
            try outputs.stills.naming.checkDestination()
            if let pattern = outputs.clips?.pattern {
                try OutputFile.checkDestination(pattern.path(counter: 1, date: now), overwrite: true)
            }
        }
        for stills in cameraStills { try stills.naming.checkDestination() }
    }
}

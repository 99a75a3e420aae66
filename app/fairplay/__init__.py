"""Fair-play analytics in the service: per-hand features stored once, detectors over them."""

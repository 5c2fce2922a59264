//! Places on the sphere. A circle (centre and radius) is stored with terms that let the
//! database test "comes within W meters of a point" by great-circle distance with arithmetic
//! alone (SQLite has no trigonometry):
//!
//! for centres at angle θ apart, the chord between them on the unit sphere is 2·sin(θ/2), so
//! `distance ≤ W + r` ⟺ `chord² ≤ 4·(sin(W/2R)·cos(r/2R) + cos(W/2R)·sin(r/2R))²`
//! (the sine of a sum), with the point as a unit vector and `sin(r/2R)`, `cos(r/2R)` stored.

/// The Earth's mean radius, in meters.
pub const EARTH_RADIUS_M: f64 = 6_371_008.8;

/// A point on the unit sphere.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitVector {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl UnitVector {
    pub fn new(lat: f64, lng: f64) -> Self {
        let (lat, lng) = (lat.to_radians(), lng.to_radians());
        Self {
            x: lat.cos() * lng.cos(),
            y: lat.cos() * lng.sin(),
            z: lat.sin(),
        }
    }
}

/// `sin` and `cos` of half the angle a distance spans on the sphere.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HalfAngle {
    pub sin: f64,
    pub cos: f64,
}

impl HalfAngle {
    pub fn of_meters(meters: f64) -> Self {
        let half = meters / (2.0 * EARTH_RADIUS_M);
        Self {
            sin: half.sin(),
            cos: half.cos(),
        }
    }
}

/// Great-circle distance in meters (haversine).
pub fn distance_m(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (lat1, lat2) = (a.0.to_radians(), b.0.to_radians());
    let (dlat, dlng) = ((b.0 - a.0).to_radians(), (b.1 - a.1).to_radians());
    let h = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlng / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * h.sqrt().min(1.0).asin()
}

/// Degrees of latitude (and of longitude at `lat`) that `meters` can span at most: the
/// bounds of a box that holds every point within `meters` of the centre.
pub fn degrees_spanned(lat: f64, meters: f64) -> (f64, Option<f64>) {
    let dlat = (meters / EARTH_RADIUS_M).to_degrees();
    let widest = (lat.abs() + dlat).min(90.0).to_radians().cos();
    // Near a pole (or a box wider than the world) longitude bounds nothing.
    let dlng = (widest > 0.01).then(|| dlat / widest).filter(|d| *d < 180.0);
    (dlat, dlng)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The database's test, in Rust.
    fn within(point: (f64, f64), meters: f64, centre: (f64, f64), radius: f64) -> bool {
        let (p, c) = (UnitVector::new(point.0, point.1), UnitVector::new(centre.0, centre.1));
        let chord2 = (p.x - c.x).powi(2) + (p.y - c.y).powi(2) + (p.z - c.z).powi(2);
        let (w, r) = (HalfAngle::of_meters(meters), HalfAngle::of_meters(radius));
        chord2 <= 4.0 * (w.sin * r.cos + w.cos * r.sin).powi(2)
    }

    #[test]
    fn the_arithmetic_test_agrees_with_haversine() {
        let centre = (51.5246, -0.1340);
        // Each point is tested just inside and just outside the distance that reaches the circle.
        for (point, radius) in [
            ((51.5300, -0.1340), 100.0),
            ((51.5300, -0.1200), 0.0),
            ((48.8566, 2.3522), 100_000.0),
            ((52.4, 1.3), 50_000.0),
        ] {
            let d = distance_m(point, centre);
            for slack in [-1.0, 1.0] {
                let m = d - radius + slack;
                if m >= 0.0 {
                    assert_eq!(within(point, m, centre, radius), slack > 0.0, "{point:?} {m} {radius}");
                }
            }
        }
    }

    #[test]
    fn distances_are_great_circle_meters() {
        // London to Paris: about 343.5 km.
        let d = distance_m((51.5074, -0.1278), (48.8566, 2.3522));
        assert!((d - 343_560.0).abs() < 1_000.0, "{d}");
        assert_eq!(distance_m((10.0, 20.0), (10.0, 20.0)), 0.0);
    }

    #[test]
    fn boxes_hold_the_circle() {
        let (dlat, dlng) = degrees_spanned(51.5, 1_000.0);
        assert!((dlat - 0.008_99).abs() < 0.000_1, "{dlat}");
        assert!(dlng.unwrap() > dlat);
        assert_eq!(degrees_spanned(89.99, 10_000.0).1, None);
    }
}

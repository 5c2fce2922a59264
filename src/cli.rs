//! `lostfound user add|passwd|set-email|list|unlock|remove`: account management from the command
//! line; `lostfound items import`; and `lostfound backup`. Every command says which database
//! it used.

mod lines;

use std::{
    io::{BufRead, IsTerminal},
    path::Path,
    sync::Arc,
};

use anyhow::{Context, anyhow, bail};

use crate::{
    auth::{Passwords, add_user, set_password, unlock},
    config::{ItemsCommand, SiteCommand, UserCommand},
    cpu::CpuWork,
    domain::{AccountPatch, Email, ImportedAccount, ImportedItem, NewAccount, Password, SiteFields, access::Role},
    store::{AccountChange, ImportOutcome, ImportStep, SiteRefusal, Store},
    time::now_ms,
};
use lines::Lines;

pub async fn run(store: &Store, command: UserCommand) -> anyhow::Result<()> {
    let database = store.name();
    match command {
        UserCommand::Add {
            id,
            name,
            admin,
            email,
            password_stdin,
        } => {
            // The address is checked before the password is asked for.
            if let Some(email) = &email {
                Email::parse(email)?;
            }
            let password = read_password(password_stdin, true)?;
            let role = Role::from_admin_flag(admin);
            let account = NewAccount::new(&id, &name, &password, role, email.as_deref())?;
            let user = add_user(store, &Passwords::new().await?, &account).await?.user;
            println!("added {} '{}' ({}) to {database}", user.role.name(), user.id, user.name);
        }
        UserCommand::Passwd { id, password_stdin } => {
            if store.user(&id).await?.is_none() {
                bail!("no user '{id}' in {database}");
            }
            let password = Password::parse(&read_password(password_stdin, true)?)?;
            set_password(store, &Passwords::new().await?, &id, &password).await?;
            println!("password changed for '{id}' in {database}; their sessions have ended");
        }
        UserCommand::SetEmail { id, email } => {
            let email = Email::parse(&email)?;
            if !store.set_email(&id, Some(email.as_str())).await? {
                bail!("no user '{id}' in {database}");
            }
            println!("'{id}' in {database} gets notifications at {}", email.as_str());
        }
        UserCommand::Import { file, mail } => import(store, &file, mail.smtp_url.is_some()).await?,
        UserCommand::List => {
            let users = store.list_users().await?;
            println!("Accounts in {database}:");
            println!("{:<24} {:<13} {:<12} NAME", "ID", "ROLE", "SITES");
            for user in users {
                let sites: Vec<String> = user.sites.iter().map(i64::to_string).collect();
                println!(
                    "{:<24} {:<13} {:<12} {}",
                    user.id,
                    user.role.name(),
                    sites.join(","),
                    user.name
                );
            }
        }
        UserCommand::Sites { id, sites } => match store.update_account(&id, &AccountPatch::sites_only(sites)).await? {
            AccountChange::Done(account) if account.user.sites.is_empty() => {
                println!("'{}' in {database} works at no site", account.user.id);
            }
            AccountChange::Done(account) => {
                let sites: Vec<String> = account.user.sites.iter().map(i64::to_string).collect();
                let user = &account.user;
                println!(
                    "'{}' ({}) in {database} works at sites {}",
                    user.id,
                    user.role.name(),
                    sites.join(", ")
                );
            }
            AccountChange::NotFound => bail!("no user '{id}' in {database}"),
            AccountChange::UnknownSite => bail!("no such site in {database}: see lostfound site list"),
            AccountChange::LastAdmin => unreachable!("sites change no administrator"),
        },
        UserCommand::Unlock { id } => {
            if store.user(&id).await?.is_none() {
                bail!("no user '{id}' in {database}");
            }
            let cleared = unlock(store, &id).await?;
            println!("unlocked '{id}' in {database}: {cleared} failed-login counts forgotten");
        }
        UserCommand::Remove { id } => match store.erase_account(&id, now_ms()).await? {
            AccountChange::Done(anonymous) => println!(
                "erased '{id}' from {database}: their sessions ended; their reports, claims and messages are kept as {anonymous}'s"
            ),
            AccountChange::NotFound => bail!("no user '{id}' in {database}"),
            AccountChange::LastAdmin => {
                bail!("'{id}' is the last active administrator of {database}: make another one first")
            }
            AccountChange::UnknownSite => unreachable!("removing names no site"),
        },
    }
    Ok(())
}

/// `lostfound user import FILE`: creates the accounts the file lists that do not exist yet,
/// and says what it did, line by line for the rows it refused.
async fn import(store: &Store, file: &Path, welcome: bool) -> anyhow::Result<()> {
    let mut rows = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_path(file)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let (mut created, mut mailed, mut existing, mut refused) = (0, 0, 0, Vec::new());
    for (n, record) in rows.records().enumerate() {
        let line = n + 1;
        let record = record.with_context(|| format!("{} line {line} is not CSV", file.display()))?;
        let fields: Vec<&str> = record.iter().collect();
        // A header row, if the file has one.
        if line == 1 && fields.first().is_some_and(|f| f.trim().eq_ignore_ascii_case("id")) {
            continue;
        }
        match ImportedAccount::parse(&fields) {
            Ok(account) => match store.import_account(&account, welcome, now_ms()).await? {
                ImportOutcome::Created { mailed: sent } => {
                    created += 1;
                    mailed += usize::from(sent);
                }
                ImportOutcome::Exists => existing += 1,
            },
            Err(err) => refused.push(format!("  line {line}: {}", err.message)),
        }
    }
    let database = store.name();
    println!(
        "imported {} into {database}: {created} created, {existing} already there, {} refused",
        file.display(),
        refused.len()
    );
    if welcome {
        println!("{mailed} new accounts will be mailed a link to choose their password");
    } else if created > 0 {
        println!(
            "email is not set up (LOSTFOUND_SMTP_URL): the {created} new accounts have no password yet; \
             staff set one (lostfound user passwd ID, or the Accounts screen), or, once email works, \
             \"Forgot password?\" mails a link"
        );
    }
    for line in &refused {
        println!("{line}");
    }
    Ok(())
}

/// Items written per transaction by `items import`: 5,000 wrote 100,000 items in 5.8–7.3 s
/// where 1,000 took 8.2–9.9 (a commit writes out the index pages it touched, and few are
/// touched only once); each holds a running service's writes for a third of a second on SQLite,
/// half a second on PostgreSQL (the list version's row), on this machine.
const IMPORT_BATCH: usize = 5_000;

/// A batch also ends once its lines hold this much: one batch is read while the one before
/// is written, so an import holds about two of them. By count alone, 5,000 lines with a
/// 3 MB photo each made a batch of 15 GB (the import's peak grew by 3 MB a photo line).
const IMPORT_BATCH_BYTES: usize = 16 << 20;

pub async fn items(store: &Store, command: ItemsCommand) -> anyhow::Result<()> {
    match command {
        ItemsCommand::Import { file } => {
            import_items(store, &file).await?;
            retire_orphan_ids(store).await
        }
    }
}

/// Reports filed under an id no account has would go to whoever later takes it: such ids
/// are retired, and the operator told.
async fn retire_orphan_ids(store: &Store) -> anyhow::Result<()> {
    let retired = store.retire_orphan_ids().await?;
    if retired > 0 {
        println!(
            "{retired} ids that reports are filed under have no account: retired, so that nobody can \
             take one and with it those reports (to keep them, import the accounts first: lostfound user import)"
        );
    }
    Ok(())
}

/// `lostfound items import FILE`: every line checked, then written a batch at a time. A file
/// with a refused line adds nothing, so the file, once fixed, can be imported whole. Each
/// batch commits with the line it reaches (`store::imports`): run again after it was stopped,
/// the import goes on after the last line committed; run again after it ended, it adds nothing.
async fn import_items(store: &Store, file: &Path) -> anyhow::Result<()> {
    let (now, name, database) = (now_ms(), file.display(), store.name());
    let mut lines = Lines::open(file).await?;
    let (mut count, mut refused) = (0, Vec::new());
    let mut batch = Batch::default();
    let mut check = async |batch: &mut Batch| -> anyhow::Result<()> {
        for (n, item) in batch.checked(now).await? {
            match item {
                Ok(_) => count += 1,
                Err(message) => refused.push(format!("  line {n}: {message}")),
            }
        }
        Ok(())
    };
    while let Some((n, line)) = lines
        .next()
        .await
        .map_err(|err| anyhow!("{err:#}: nothing was imported"))?
    {
        if batch.add(n, line) {
            check(&mut batch).await?;
        }
    }
    check(&mut batch).await?;
    if !refused.is_empty() {
        bail!(
            "{name} has {} refused lines; nothing was imported:\n{}",
            refused.len(),
            refused.join("\n")
        );
    }
    let file_sha256 = lines.sha256();
    let progress = store.item_import(&file_sha256, now).await?;
    if progress.finished_at.is_some() {
        println!(
            "{name} was imported into {database} already ({} items): nothing added",
            progress.items_done
        );
        return Ok(());
    }
    if progress.items_done > 0 {
        println!(
            "{} of {count} items were imported by an earlier run that stopped: importing the rest",
            progress.items_done
        );
    }
    let mut writer = BatchWriter {
        store: store.clone(),
        file_sha256: file_sha256.into(),
        from_line: progress.lines_done,
        writing: None,
    };
    let sent = send_batches(&mut writer, file, now).await;
    // What was sent is committed (or refused) before the run ends, whatever the reading met.
    let written = writer.wait().await;
    let imported = sent?;
    written?;
    println!("imported {imported} of {count} items from {name} into {database}");
    Ok(())
}

/// Reads the lines after those `writer` starts from again, a batch at a time, and sends each
/// to it; the last goes with the import's end. How many items were sent.
async fn send_batches(writer: &mut BatchWriter, file: &Path, now: i64) -> anyhow::Result<usize> {
    let (name, lines_done) = (file.display(), writer.from_line);
    let mut batch = Batch::default();
    let mut imported = 0;
    let mut send = async |batch: &mut Batch, finished_at: Option<i64>| -> anyhow::Result<()> {
        let to_line = batch.lines.last().map_or(writer.from_line, |&(n, _)| n as i64);
        let items = batch
            .checked(now)
            .await?
            .into_iter()
            // The file changed between the two readings.
            .map(|(n, item)| item.map_err(|message| anyhow!("{name} line {n}: {message}")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        imported += items.len();
        writer.send(items, to_line, finished_at).await
    };
    let mut lines = Lines::open(file).await?;
    while let Some((n, line)) = lines.next().await? {
        if n as i64 > lines_done && batch.add(n, line) {
            send(&mut batch, None).await?;
        }
    }
    send(&mut batch, Some(now_ms())).await?;
    Ok(imported)
}

/// Lines read for a batch: it is full at [`IMPORT_BATCH`] lines or [`IMPORT_BATCH_BYTES`].
#[derive(Default)]
struct Batch {
    lines: Vec<(usize, String)>,
    bytes: usize,
    cpu: CpuWork,
}

impl Batch {
    /// Adds line `n`; true once the batch is full.
    fn add(&mut self, n: usize, line: String) -> bool {
        self.bytes += line.len();
        self.lines.push((n, line));
        self.lines.len() == IMPORT_BATCH || self.bytes >= IMPORT_BATCH_BYTES
    }

    /// Takes the lines, each with the item it describes or why it is refused, in order. Checked
    /// on every core: checking a photo decodes it and makes its thumbnail, tens of
    /// milliseconds each.
    async fn checked(&mut self, now: i64) -> anyhow::Result<Vec<(usize, Result<ImportedItem, String>)>> {
        self.bytes = 0;
        let lines = std::mem::take(&mut self.lines);
        self.cpu
            .across_cores(lines, move |run: Vec<(usize, String)>| {
                run.into_iter()
                    .map(|(n, line)| (n, imported_item(&line, now)))
                    .collect()
            })
            .await
    }
}

/// Writes an import's batches in the file's order while the next one is read: a batch is
/// sent once the one before it has committed, so one at most is being written. Reading and
/// checking a batch took a sixth of an import's time, which the writer thread now does not
/// wait for.
struct BatchWriter {
    store: Store,
    file_sha256: Arc<str>,
    /// Where the next batch's lines start: the last line sent.
    from_line: i64,
    writing: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl BatchWriter {
    /// Sends `batch`, the lines up to `to_line`, once the batch before it has committed.
    async fn send(&mut self, batch: Vec<ImportedItem>, to_line: i64, finished_at: Option<i64>) -> anyhow::Result<()> {
        self.wait().await?;
        let (store, file_sha256, from_line) = (self.store.clone(), Arc::clone(&self.file_sha256), self.from_line);
        self.writing = Some(tokio::spawn(async move {
            let step = ImportStep {
                file_sha256: &file_sha256,
                from_line,
                to_line,
                finished_at,
            };
            if !store.import_items(batch, &step).await? {
                bail!(
                    "another run imports this file into {} at the same time: this one stopped; run it again \
                     once that one ends, to check that every item is in",
                    store.name()
                );
            }
            Ok(())
        }));
        self.from_line = to_line;
        Ok(())
    }

    /// Waits for the batch being written, if any.
    async fn wait(&mut self) -> anyhow::Result<()> {
        match self.writing.take() {
            Some(writing) => writing.await?,
            None => Ok(()),
        }
    }
}

/// The item a line of an import file describes, or why it is refused.
fn imported_item(line: &str, now: i64) -> Result<ImportedItem, String> {
    match serde_json::from_str::<serde_json::Value>(line) {
        Ok(serde_json::Value::Object(body)) => ImportedItem::parse(&body, now).map_err(|err| err.message.into_owned()),
        _ => Err("not a JSON object".to_owned()),
    }
}

/// `lostfound site add|list|remove`.
pub async fn site(store: &Store, command: SiteCommand) -> anyhow::Result<()> {
    let database = store.name();
    match command {
        SiteCommand::Add {
            name,
            place,
            lat,
            lng,
            hours,
            contact,
            collect,
            hold_days,
        } => {
            let fields = SiteFields::new(
                &name,
                place.as_deref(),
                lat.zip(lng),
                hours.as_deref(),
                contact.as_deref(),
                collect.as_deref(),
                hold_days,
            )?;
            match store.add_site(&fields.to_new_site(), now_ms()).await? {
                Ok(site) => println!("added site {} '{}' to {database}", site.id, site.name),
                Err(_) => bail!("a site in {database} is named '{name}' already"),
            }
        }
        SiteCommand::List => {
            println!("Sites in {database}:");
            println!("{:<4} {:<32} PLACE", "ID", "NAME");
            for site in store.sites().await? {
                println!("{:<4} {:<32} {}", site.id, site.name, site.place.unwrap_or_default());
            }
        }
        SiteCommand::Remove { id } => match store.remove_site(id).await? {
            Ok(()) => println!("removed site {id} from {database}"),
            Err(SiteRefusal::HoldsItems) => bail!("site {id} holds items: move them to another site first"),
            Err(_) => bail!("no site {id} in {database}"),
        },
    }
    Ok(())
}

/// `lostfound backup FILE`: a snapshot of the database, taken while the server runs.
pub async fn backup(store: &Store, file: &Path) -> anyhow::Result<()> {
    store.backup_to(file).await?;
    println!("backed up {} to {}", store.name(), file.display());
    Ok(())
}

/// One line from standard input, or a prompt without echo (asked twice to catch typos).
fn read_password(from_stdin: bool, confirm: bool) -> anyhow::Result<String> {
    if from_stdin || !std::io::stdin().is_terminal() {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("cannot read the password from standard input")?;
        return Ok(line.trim_end_matches(['\r', '\n']).to_owned());
    }
    let password = rpassword::prompt_password("Password: ").context("cannot read the password")?;
    if confirm && rpassword::prompt_password("Repeat password: ")? != password {
        bail!("the passwords do not match");
    }
    Ok(password)
}

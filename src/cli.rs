//! `lostfound user add|passwd|set-email|list|unlock|remove`: account management from the command
//! line; and `lostfound backup`. Every command says which database it used.

use std::{
    io::{BufRead, IsTerminal},
    path::Path,
};

use anyhow::{Context, anyhow, bail};

use crate::{
    auth::{Passwords, add_user, set_password, unlock},
    config::UserCommand,
    domain::Email,
    store::Store,
};

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
            // Checked before anything is written.
            let email = email
                .as_deref()
                .map(Email::parse)
                .transpose()
                .map_err(|err| anyhow!(err.message))?;
            let password = read_password(password_stdin, true)?;
            let user = add_user(store, &Passwords::new().await?, &id, &name, admin, &password).await?;
            if let Some(email) = &email {
                store.set_email(&user.id, Some(email.as_str())).await?;
            }
            let role = if user.is_admin { "administrator" } else { "user" };
            println!("added {role} '{}' ({}) to {database}", user.id, user.name);
        }
        UserCommand::Passwd { id, password_stdin } => {
            if store.user(&id).await?.is_none() {
                bail!("no user '{id}' in {database}");
            }
            let password = read_password(password_stdin, true)?;
            set_password(store, &Passwords::new().await?, &id, &password).await?;
            println!("password changed for '{id}' in {database}; their sessions have ended");
        }
        UserCommand::SetEmail { id, email } => {
            let email = Email::parse(&email).map_err(|err| anyhow!(err.message))?;
            if !store.set_email(&id, Some(email.as_str())).await? {
                bail!("no user '{id}' in {database}");
            }
            println!("'{id}' in {database} gets notifications at {}", email.as_str());
        }
        UserCommand::List => {
            let users = store.list_users().await?;
            println!("Accounts in {database}:");
            println!("{:<24} {:<6} NAME", "ID", "ADMIN");
            for user in users {
                println!(
                    "{:<24} {:<6} {}",
                    user.id,
                    if user.is_admin { "yes" } else { "no" },
                    user.name
                );
            }
        }
        UserCommand::Unlock { id } => {
            if store.user(&id).await?.is_none() {
                bail!("no user '{id}' in {database}");
            }
            let cleared = unlock(store, &id).await?;
            println!("unlocked '{id}' in {database}: {cleared} failed-login counts forgotten");
        }
        UserCommand::Remove { id } => {
            if !store.remove_user(&id).await? {
                bail!("no user '{id}' in {database}");
            }
            println!("removed '{id}' from {database} and ended their sessions");
        }
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

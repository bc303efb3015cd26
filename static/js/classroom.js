// Marks the page as scripted so "Move" buttons (needed without JavaScript) can hide: with
// htmx, changing a select already saves the move.
document.documentElement.classList.add("js");

// Progressive enhancement only: every page works without it.
document.addEventListener('click', (event) => {
  const button = event.target.closest('[data-copy]');
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(() => {
    button.textContent = 'Copied';
  });
});

document.addEventListener('submit', (event) => {
  const question = event.target.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});

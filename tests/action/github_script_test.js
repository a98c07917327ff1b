// The comment script of examples/ci/github-actions.yml (actions/github-script), run with
// a fake `github`: only the comment that the token's identity wrote AND that starts with
// the marker is updated; someone else's with the marker never is (issue 31 item 1).
//   node github_script_test.js SCRIPT_FILE   (run in a folder that holds comment.md)
const fs = require('fs');
const script = fs.readFileSync(process.argv[2], 'utf8');
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const marker = '<!-- tracediff-report -->';

async function run(comments, login) {
  const calls = [];
  const github = {
    paginate: async () => comments,
    rest: {
      issues: {
        listComments: () => {},
        updateComment: async (a) => { calls.push(`update ${a.comment_id}`); },
        createComment: async () => { calls.push('create'); },
      },
      users: {
        // GITHUB_TOKEN (an installation token) may not read /user.
        getAuthenticated: async () => {
          if (!login) throw Object.assign(new Error('Resource not accessible by integration'), { status: 403 });
          return { data: { login } };
        },
      },
    },
  };
  const context = { repo: { owner: 'octo', repo: 'repo' }, payload: { pull_request: { number: 42 } } };
  await new AsyncFunction('require', 'github', 'context', 'core', script)(require, github, context, {});
  return calls.join(',');
}

const mallory = { id: 1, user: { login: 'mallory' }, body: `${marker}\nnot ours` };
const bot = { id: 2, user: { login: 'github-actions[bot]' }, body: `${marker}\nours` };
const octocat = { id: 3, user: { login: 'octocat' }, body: `${marker}\noctocat's` };
const cases = [
  ['GITHUB_TOKEN, only someone else has the marker: a new comment', [mallory], null, 'create'],
  ['GITHUB_TOKEN: the bot\'s own comment is updated, not the first with the marker', [mallory, bot], null, 'update 2'],
  ['a user\'s token: that user\'s comment, not the bot\'s', [bot, mallory, octocat], 'octocat', 'update 3'],
  ['a user\'s token, none of theirs: a new comment', [bot, mallory], 'octocat', 'create'],
];
(async () => {
  let failed = 0;
  for (const [what, comments, login, want] of cases) {
    const got = await run(comments, login);
    console.log(`${got === want ? 'ok' : 'FAILED'}: example comment script: ${what} (${got})`);
    if (got !== want) failed++;
  }
  process.exit(failed ? 1 : 0);
})();

declare module 'jira2md' {
  const j2m: { to_markdown(text: string): string; to_jira(text: string): string };
  export default j2m;
}

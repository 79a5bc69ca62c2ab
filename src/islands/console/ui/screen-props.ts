// What every console screen is given: the path's parameters and the route's title.
export interface ScreenProps {
  params: Record<string, string>;
  title: string;
}
